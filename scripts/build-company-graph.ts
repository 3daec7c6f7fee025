/**
 * Writes fixtures/graphs/company.ttl: a small invented company graph (staff, departments, offices, products,
 * suppliers, projects) for the table-shaped synthesis of issue 21 — classes with labels, properties with
 * labels / domains / ranges, optional attributes (e-mail, phone, manager: empty cells), several numeric
 * attributes per class (salary; price, unit cost, width, height, weight; budget; capacity; rating), years and
 * dates, grouping relations with many members per group, and names that share words ("Aero Kettle",
 * "Aero Lamp Pro"). Every name and number is made up here from a seeded random source; nothing comes from
 * a data set.
 *
 *   npx tsx scripts/build-company-graph.ts [--employees 90] [--products 60] [--seed 7] [--out fixtures/graphs/company.ttl]
 */
import * as fs from 'node:fs';
import { Command } from 'commander';
import { itemAt, Rng } from '../src/core';

const program = new Command()
  .option('--employees <n>', 'employees', '90')
  .option('--products <n>', 'products', '60')
  .option('--seed <n>', 'seed', '7')
  .option('--out <file>', 'output file', 'fixtures/graphs/company.ttl')
  .parse();
const o = program.opts<{ employees: string; products: string; seed: string; out: string }>();
const rng = new Rng(Number(o.seed));

const NS = 'http://askgraph.dev/company/';
const lines: string[] = [
  '# An invented company graph for the table-shaped synthesis tests (scripts/build-company-graph.ts). Not from any data set.',
  `@prefix : <${NS}> .`,
  '@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .',
  '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .',
  '@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .',
];
const str = (s: string) => JSON.stringify(s);
const id = (s: string) => s.replace(/[^A-Za-z0-9]+/g, '_');
const t = (s: string, p: string, o2: string) => lines.push(`:${s} ${p} ${o2} .`);

function cls(name: string, label: string) {
  t(name, 'a', 'rdfs:Class');
  t(name, 'rdfs:label', `${str(label)}@en`);
}
function prop(name: string, label: string, domain: string[], range?: string[]) {
  t(name, 'a', 'rdf:Property');
  t(name, 'rdfs:label', `${str(label)}@en`);
  for (const d of domain) t(name, 'rdfs:domain', `:${d}`);
  for (const r of range ?? []) t(name, 'rdfs:range', `:${r}`);
}
function entity(c: string, label: string): string {
  const k = `${c.toLowerCase()}_${id(label)}`;
  t(k, 'a', `:${c}`);
  t(k, 'rdfs:label', str(label));
  return k;
}
const int = (n: number) => `"${Math.round(n)}"^^xsd:integer`;
const dec = (n: number, d = 2) => `"${n.toFixed(d)}"^^xsd:decimal`;
const date = (y: number, m: number, d: number) => `"${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}"^^xsd:date`;
const between = (a: number, b: number) => a + rng.next() * (b - a);

for (const [c, l] of [['Employee', 'employee'], ['Department', 'department'], ['Office', 'office'], ['Country', 'country'], ['Product', 'product'], ['Category', 'category'], ['Supplier', 'supplier'], ['Project', 'project'], ['Role', 'role']] as const) cls(c, l);
prop('worksIn', 'works in', ['Employee'], ['Department']);
prop('reportsTo', 'reports to', ['Employee'], ['Employee']);
prop('basedIn', 'based in', ['Employee'], ['Office']);
prop('hasRole', 'role', ['Employee'], ['Role']);
prop('memberOf', 'member of', ['Employee'], ['Project']);
prop('email', 'email', ['Employee']);
prop('phone', 'phone number', ['Employee']);
prop('salary', 'salary', ['Employee']);
prop('hireDate', 'hire date', ['Employee']);
prop('birthYear', 'birth year', ['Employee']);
prop('headedBy', 'headed by', ['Department'], ['Employee']);
prop('budget', 'budget', ['Department', 'Project']);
prop('inCountry', 'in country', ['Office', 'Supplier'], ['Country']);
prop('capacity', 'capacity', ['Office']);
prop('openingYear', 'opening year', ['Office']);
prop('inCategory', 'in category', ['Product'], ['Category']);
prop('suppliedBy', 'supplied by', ['Product'], ['Supplier']);
prop('ownedBy', 'owned by', ['Product'], ['Department']);
prop('price', 'price', ['Product']);
prop('unitCost', 'unit cost', ['Product']);
prop('width', 'width', ['Product']);
prop('height', 'height', ['Product']);
prop('weight', 'weight', ['Product']);
prop('launchYear', 'launch year', ['Product']);
prop('rating', 'rating', ['Supplier']);
prop('foundingYear', 'founding year', ['Supplier']);
prop('ledBy', 'led by', ['Project'], ['Employee']);
prop('startDate', 'start date', ['Project']);

const countries = ['Estonia', 'Portugal', 'Canada', 'Japan', 'Chile'].map((c) => entity('Country', c));
const officeNames = ['Tallinn', 'Tartu', 'Lisbon', 'Porto', 'Toronto', 'Osaka', 'Valparaiso'];
const officeCountry = [0, 0, 1, 1, 2, 3, 4];
const offices = officeNames.map((n, i) => {
  const k = entity('Office', `${n} office`);
  t(k, ':inCountry', `:${itemAt(countries, itemAt(officeCountry, i, 'office countries'), 'countries')}`);
  t(k, ':capacity', int(20 + 10 * rng.int(30)));
  t(k, ':openingYear', int(1995 + rng.int(28)));
  return k;
});
const departments = ['Engineering', 'Sales', 'Marketing', 'Finance', 'Support', 'Research', 'Logistics', 'Legal'].map((n) => {
  const k = entity('Department', n);
  t(k, ':budget', int(100_000 * (2 + rng.int(40))));
  return k;
});
const roles = ['Engineer', 'Senior Engineer', 'Analyst', 'Manager', 'Designer', 'Accountant', 'Technician', 'Recruiter', 'Consultant'].map((n) => entity('Role', n));

const FIRST = ['Anna', 'Liis', 'Marta', 'Joao', 'Rui', 'Ines', 'Kenji', 'Yuki', 'Hana', 'Diego', 'Camila', 'Sofia', 'Mark', 'Olga', 'Peeter', 'Tiago', 'Emma', 'Noah', 'Leah', 'Omar', 'Priya', 'Lucas', 'Mei', 'Karl', 'Elena'];
const LAST = ['Tamm', 'Saar', 'Kask', 'Silva', 'Costa', 'Sousa', 'Tanaka', 'Sato', 'Mori', 'Rojas', 'Fuentes', 'Brown', 'Martin', 'Novak', 'Ilves', 'Pereira', 'Kowalski', 'Haddad', 'Nair', 'Laine', 'Ortiz', 'Berg', 'Ito'];
const used = new Set<string>();
const employees: string[] = [];
const deptOf = new Map<string, number>();
for (let i = 0; i < Number(o.employees); i++) {
  let name = '';
  do name = `${rng.pick(FIRST)} ${rng.pick(LAST)}`;
  while (used.has(name));
  used.add(name);
  const k = entity('Employee', name);
  employees.push(k);
  // departments of very different sizes (a skewed pick), so group sizes spread
  const d = Math.min(departments.length - 1, Math.floor(Math.pow(rng.next(), 1.8) * departments.length));
  deptOf.set(k, d);
  t(k, ':worksIn', `:${departments[d]}`);
  t(k, ':basedIn', `:${offices[Math.min(offices.length - 1, Math.floor(Math.pow(rng.next(), 1.5) * offices.length))]}`);
  t(k, ':hasRole', `:${rng.pick(roles)}`);
  if (rng.chance(0.85)) t(k, ':email', str(`${name.toLowerCase().replace(' ', '.')}@example.com`));
  if (rng.chance(0.6)) t(k, ':phone', str(`+1 555 ${String(1000 + rng.int(9000))}`));
  t(k, ':salary', int(1000 * (35 + rng.int(90))));
  t(k, ':hireDate', date(2005 + rng.int(19), 1 + rng.int(12), 1 + rng.int(28)));
  t(k, ':birthYear', int(1960 + rng.int(40)));
}
// heads and managers: the first employee of each department heads it; most others report to someone in it
departments.forEach((d, i) => {
  const staff = employees.filter((e) => deptOf.get(e) === i);
  if (!staff.length) return;
  t(d, ':headedBy', `:${staff[0]}`);
  for (const e of staff.slice(1)) if (rng.chance(0.9)) t(e, ':reportsTo', `:${staff[rng.int(Math.min(3, staff.length - 1))]}`);
});
const ADJ = ['Blue', 'Silent', 'Northern', 'Rapid', 'Golden', 'Bright', 'Iron', 'Open'];
const NOUN = ['Harbor', 'Falcon', 'Bridge', 'Compass', 'Lantern', 'River'];
const projects: string[] = [];
for (let i = 0; i < 14; i++) {
  let name = '';
  do name = `${rng.pick(ADJ)} ${rng.pick(NOUN)}`;
  while (used.has(name));
  used.add(name);
  const k = entity('Project', name);
  projects.push(k);
  t(k, ':ledBy', `:${rng.pick(employees)}`);
  t(k, ':budget', int(10_000 * (5 + rng.int(60))));
  t(k, ':startDate', date(2015 + rng.int(9), 1 + rng.int(12), 1 + rng.int(28)));
}
for (const e of employees) for (const p of rng.shuffle([...projects]).slice(0, rng.int(3))) t(e, ':memberOf', `:${p}`);
const SUP_A = ['Northwind', 'Baltic', 'Pacific', 'Andes', 'Sakura', 'Atlas', 'Harbor', 'Maple'];
const SUP_B = ['Metals', 'Plastics', 'Electronics', 'Textiles', 'Components'];
const suppliers: string[] = [];
for (let i = 0; i < 12; i++) {
  let name = '';
  do name = `${rng.pick(SUP_A)} ${rng.pick(SUP_B)}`;
  while (used.has(name));
  used.add(name);
  const k = entity('Supplier', name);
  suppliers.push(k);
  t(k, ':inCountry', `:${rng.pick(countries)}`);
  t(k, ':rating', dec(between(1.5, 5), 1));
  t(k, ':foundingYear', int(1950 + rng.int(70)));
}
const categories = ['Kitchen', 'Lighting', 'Furniture', 'Audio', 'Networking', 'Climate'].map((n) => entity('Category', n));
const PROD_A = ['Aero', 'Nova', 'Terra', 'Lumen', 'Vero', 'Orbit', 'Pulse', 'Zen'];
const PROD_B: string[][] = [['Kettle', 'Blender', 'Toaster'], ['Lamp', 'Bulb', 'Spotlight'], ['Chair', 'Desk', 'Shelf'], ['Speaker', 'Headset', 'Soundbar'], ['Router', 'Switch', 'Repeater'], ['Fan', 'Heater', 'Purifier']];
for (let i = 0; i < Number(o.products); i++) {
  const c = rng.int(categories.length);
  let name = '';
  do name = `${rng.pick(PROD_A)} ${rng.pick(itemAt(PROD_B, c, 'product names'))}${rng.chance(0.35) ? ' ' + rng.pick(['Pro', 'Mini', 'Max', 'Plus']) : ''}`;
  while (used.has(name));
  used.add(name);
  const k = entity('Product', name);
  t(k, ':inCategory', `:${categories[c]}`);
  t(k, ':suppliedBy', `:${rng.pick(suppliers)}`);
  if (rng.chance(0.8)) t(k, ':ownedBy', `:${rng.pick(departments)}`);
  const cost = between(5, 400);
  t(k, ':unitCost', dec(cost));
  // most sell above cost, some below (clearance)
  t(k, ':price', dec(cost * (rng.chance(0.15) ? between(0.6, 0.95) : between(1.1, 2.5))));
  t(k, ':width', int(between(8, 120)));
  t(k, ':height', int(between(8, 120)));
  if (rng.chance(0.75)) t(k, ':weight', dec(between(0.2, 30), 1));
  t(k, ':launchYear', int(2010 + rng.int(14)));
}
fs.writeFileSync(o.out, lines.join('\n') + '\n');
console.log(`${o.out}: ${lines.length - 5} triples`);
