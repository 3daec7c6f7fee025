/**
 * A large, realistic, reproducible RDF graph for the scale benchmarks (issue 25): a company / people /
 * places / works world of the LUBM/BSBM kind, written here.
 *
 *   npx tsx scripts/build-large-graph.ts --out /tmp/large --scale 1 [--seed 1] [--part 2000000]
 *
 * Scale 1 is about 27M triples (4.8M labelled entities); `--scale 0.001` is a few thousand triples for
 * CI. Output: N-Triples files part-NNN.nt (each at most --part triples) plus MANIFEST.json (counts per
 * class and predicate, seed, scale, graph IRI) — streamed, never the whole graph in memory.
 *
 * What makes it look like real data:
 *  - 17 classes, 30 relations, schema triples (rdfs:label, rdfs:domain, rdfs:range on every term);
 *  - power-law degrees: objects are drawn log-uniformly (P(k) ~ 1/k) through a per-relation permutation,
 *    so a few companies employ tens of thousands and most employ a handful; out-degrees (actors of a
 *    film, people someone knows) are heavy-tailed too;
 *  - names from ~230 first names and ~230 surnames of many languages: "Maria Garcia" recurs hundreds of
 *    times (real-world collisions); 2% of person labels carry a typo (a swapped / dropped / doubled
 *    letter); 6% have an skos:altLabel ("M. Garcia"); film and book titles collide with each other;
 *  - accented, Polish, Vietnamese, Cyrillic, CJK and Arabic names, language-tagged labels (@de, @fr, @ja…)
 *    on places; integers, decimals, xsd:date and xsd:gYear literals.
 *
 * Every fact of entity i of a class is a pure function of (seed, class, i), so the benchmark can ask
 * about any entity and know its gold answer without the graph (`World.facts`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AskgraphError, Rng } from '../src/core';
import type { EndpointExecutor } from '../src/execute';

export const NS = 'http://askgraph.dev/large/';
export const GRAPH = 'http://askgraph.dev/large/graph';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';
const SKOS_ALT = 'http://www.w3.org/2004/02/skos/core#altLabel';
const XSD = 'http://www.w3.org/2001/XMLSchema#';

// ---------- vocabulary ----------

const FIRST = (
  'James Mary John Patricia Robert Jennifer Michael Linda William Elizabeth David Barbara Richard Susan Joseph Jessica Thomas Sarah ' +
  'Charles Karen Daniel Nancy Matthew Lisa Anthony Betty Mark Margaret Paul Sandra Steven Ashley Andrew Emily Joshua Donna Kevin ' +
  'Michelle Brian Carol George Amanda Edward Melissa Ronald Deborah Timothy Stephanie Jason Rebecca Jeffrey Laura Ryan Helen Jacob ' +
  'Sharon Gary Cynthia Nicholas Kathleen Eric Amy Jonathan Angela Stephen Anna Larry Ruth Justin Brenda Scott Pamela Frank Nicole ' +
  'Maria José Juan Carmen Luis Ana Carlos Lucía Javier Sofía Miguel Isabel Pedro Elena Diego Paula Pablo Marta Jorge Julia ' +
  'François Amélie Jérôme Hélène Étienne Chloé René Zoë Noël Céline Jürgen Björn Søren Åsa Jörg Ingrid Lars Astrid Sven Greta ' +
  'Łukasz Małgorzata Wojciech Agnieszka Paweł Krzysztof Tomasz Zofia Ivan Olga Dmitri Natalia Sergei Tatiana Алексей Анна ' +
  'Giuseppe Francesca Marco Giulia Luca Chiara Matteo Alessandra Ahmed Fatima Omar Aisha Yusuf Layla محمد فاطمة Hiroshi Yuki ' +
  'Takashi Sakura Kenji Aiko Wei Li Jing Ming 伟 芳 Minh Nguyễn Thảo Anh Raj Priya Arjun Ananya Vikram Deepa Kwame Ama Chidi Ngozi ' +
  'Oluwaseun Thandiwe Mateus Beatriz João Inês Gonçalo Leonor Seán Siobhán Niamh Ciarán Aoife Dvořák Jiří Kateřina Ondřej Tereza ' +
  'Zsófia Gergő Ákos Réka Emre Elif Mehmet Ayşe Can Zeynep Kai Noa Eitan Tamar Lior Yael Pieter Anouk Sanne Joost Bram Femke'
).split(' ');

const LAST = (
  'Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson Anderson Thomas Taylor ' +
  'Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright Scott ' +
  'Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts Müller Schmidt Schneider Fischer ' +
  'Weber Meyer Wagner Becker Schulz Hoffmann Dubois Durand Lefèvre Moreau Laurent Simon Michel Garnier Rousseau Bonnet Rossi Russo ' +
  'Ferrari Esposito Bianchi Romano Colombo Ricci Marino Greco Nowak Kowalski Wiśniewski Wójcik Kowalczyk Kamiński Lewandowski ' +
  'Zieliński Szymański Ivanov Smirnov Kuznetsov Popov Vasiliev Petrov Sokolov Иванов Петров Svensson Johansson Karlsson Nilsson ' +
  'Eriksson Larsson Andersson Jensen Nielsen Hansen Pedersen Sørensen Kristiansen Virtanen Korhonen Mäkinen Nieminen Yılmaz Kaya ' +
  'Demir Şahin Çelik Öztürk Sato Suzuki Takahashi Tanaka Watanabe Ito Yamamoto Nakamura 佐藤 鈴木 Wang Li Zhang Liu Chen Yang Huang ' +
  'Zhao Wu Zhou 王 李 张 Kim Park Choi Jung Kang Cho Tran Le Pham Hoang Phan Vu Đặng Bùi Singh Kumar Sharma Patel Gupta Reddy Iyer ' +
  'Khan Ali Hassan Hussein Abdullah Ibrahim Haddad Mansour حداد Okafor Mensah Adeyemi Okonkwo Diallo Traoré Ndlovu Dlamini Silva ' +
  'Santos Oliveira Souza Pereira Costa Carvalho Almeida Ferreira Rodrigues Gomes Murphy Kelly Byrne Ryan Walsh OBrien O’Connor ' +
  'McCarthy Novák Svoboda Dvořáková Černý Procházka Nagy Kovács Tóth Szabó Horváth Cohen Levi Mizrahi Peretz Biton Friedman ' +
  'de Vries Jansen van Dijk Bakker Visser Smit Meijer de Boer Mulder'
)
  .replace(/de Vries/g, 'de_Vries')
  .replace(/van Dijk/g, 'van_Dijk')
  .replace(/de Boer/g, 'de_Boer')
  .split(' ')
  .map((s) => s.replace('_', ' '));

const ADJ = 'Silent Crimson Last Hidden Broken Golden Lost Dark Bright Endless Frozen Burning Secret Wild Distant Hollow Iron Silver Little Final Quiet Electric Northern Savage Gentle Forgotten Eternal Sacred Restless Midnight'.split(' ');
const NOUN = 'River Garden Kingdom Empire Shadow Storm Harbor Mirror Promise Road Winter Summer Machine Island Dream Signal Horizon Orchard Tide Letter Crown Forest Engine Voyage Circle Bridge Lantern Frontier Symphony Station'.split(' ');
const PLACEWORD = 'Paris Berlin Avalon Tokyo Lisbon Cairo Eden Babylon Vienna Kyoto Marrakesh Oslo Havana Prague Dublin'.split(' ');
const CO_WORD = 'Acme Apex Vertex Nimbus Quantum Helix Orion Zenith Summit Atlas Nova Vector Pioneer Beacon Cascade Harbor Meridian Sterling Titan Falcon Aurora Polar Crescent Sequoia Granite Cobalt Emerald Ivory Lumen Kestrel'.split(' ');
const CO_KIND = 'Systems Dynamics Labs Holdings Industries Partners Technologies Foods Logistics Motors Media Pharma Energy Capital Software Robotics Textiles Airlines Networks Studios'.split(' ');
const CO_SUFFIX = ['Inc.', 'Ltd', 'GmbH', 'S.A.', 'AG', 'LLC', 'plc', 'K.K.', 'B.V.', 'AB', '', '', ''];
const INDUSTRIES = 'Software;Semiconductors;Banking;Insurance;Retail;Automotive;Aerospace;Pharmaceuticals;Biotechnology;Telecommunications;Media;Publishing;Music;Film production;Video games;Energy;Oil and gas;Renewable energy;Mining;Steel;Chemicals;Agriculture;Food processing;Beverages;Textiles;Fashion;Construction;Real estate;Logistics;Shipping;Airlines;Railways;Hospitality;Tourism;Education;Healthcare;Consulting;Advertising;Robotics;E-commerce'.split(';');
const GENRES = 'Drama;Comedy;Thriller;Horror;Science fiction;Fantasy;Romance;Documentary;Animation;Western;Crime;Mystery;War;Musical;Adventure;Biography;Historical fiction;Poetry;Satire;Jazz;Rock;Pop;Hip hop;Classical;Electronic;Folk;Blues;Reggae;Metal;Soul;Country music;Opera;Punk;Ambient;Gospel;Young adult;Memoir;Travel writing;Self-help;Cookbook'.split(';');
const CATEGORIES = 'Smartphone;Laptop;Tablet;Headphones;Camera;Television;Refrigerator;Bicycle;Electric scooter;Coffee maker;Vacuum cleaner;Smartwatch;Game console;Printer;Router;Drone;Microwave oven;Washing machine;Speaker;Monitor'.split(';');
const SPORTS = 'Football;Basketball;Baseball;Ice hockey;Cricket;Rugby;Volleyball;Handball'.split(';');
/** [English, German, French, Japanese] names of real countries (the @de/@fr/@ja labels are the multilingual part). */
const COUNTRIES: [string, string, string, string][] = [
  ['Germany', 'Deutschland', 'Allemagne', 'ドイツ'], ['France', 'Frankreich', 'France', 'フランス'], ['Japan', 'Japan', 'Japon', '日本'],
  ['Brazil', 'Brasilien', 'Brésil', 'ブラジル'], ['Spain', 'Spanien', 'Espagne', 'スペイン'], ['Italy', 'Italien', 'Italie', 'イタリア'],
  ['United States', 'Vereinigte Staaten', 'États-Unis', 'アメリカ合衆国'], ['United Kingdom', 'Vereinigtes Königreich', 'Royaume-Uni', 'イギリス'],
  ['China', 'China', 'Chine', '中国'], ['India', 'Indien', 'Inde', 'インド'], ['Russia', 'Russland', 'Russie', 'ロシア'],
  ['Poland', 'Polen', 'Pologne', 'ポーランド'], ['Sweden', 'Schweden', 'Suède', 'スウェーデン'], ['Norway', 'Norwegen', 'Norvège', 'ノルウェー'],
  ['Denmark', 'Dänemark', 'Danemark', 'デンマーク'], ['Finland', 'Finnland', 'Finlande', 'フィンランド'], ['Netherlands', 'Niederlande', 'Pays-Bas', 'オランダ'],
  ['Belgium', 'Belgien', 'Belgique', 'ベルギー'], ['Switzerland', 'Schweiz', 'Suisse', 'スイス'], ['Austria', 'Österreich', 'Autriche', 'オーストリア'],
  ['Portugal', 'Portugal', 'Portugal', 'ポルトガル'], ['Ireland', 'Irland', 'Irlande', 'アイルランド'], ['Greece', 'Griechenland', 'Grèce', 'ギリシャ'],
  ['Turkey', 'Türkei', 'Turquie', 'トルコ'], ['Egypt', 'Ägypten', 'Égypte', 'エジプト'], ['Nigeria', 'Nigeria', 'Nigeria', 'ナイジェリア'],
  ['Kenya', 'Kenia', 'Kenya', 'ケニア'], ['South Africa', 'Südafrika', 'Afrique du Sud', '南アフリカ'], ['Mexico', 'Mexiko', 'Mexique', 'メキシコ'],
  ['Canada', 'Kanada', 'Canada', 'カナダ'], ['Argentina', 'Argentinien', 'Argentine', 'アルゼンチン'], ['Chile', 'Chile', 'Chili', 'チリ'],
  ['Colombia', 'Kolumbien', 'Colombie', 'コロンビア'], ['Peru', 'Peru', 'Pérou', 'ペルー'], ['Australia', 'Australien', 'Australie', 'オーストラリア'],
  ['New Zealand', 'Neuseeland', 'Nouvelle-Zélande', 'ニュージーランド'], ['South Korea', 'Südkorea', 'Corée du Sud', '韓国'], ['Vietnam', 'Vietnam', 'Viêt Nam', 'ベトナム'],
  ['Thailand', 'Thailand', 'Thaïlande', 'タイ'], ['Indonesia', 'Indonesien', 'Indonésie', 'インドネシア'], ['Israel', 'Israel', 'Israël', 'イスラエル'],
  ['Czech Republic', 'Tschechien', 'Tchéquie', 'チェコ'], ['Hungary', 'Ungarn', 'Hongrie', 'ハンガリー'], ['Ghana', 'Ghana', 'Ghana', 'ガーナ'],
  ['Morocco', 'Marokko', 'Maroc', 'モロッコ'], ['Iceland', 'Island', 'Islande', 'アイスランド'],
];
const REAL_CITIES = 'Berlin;München;Hamburg;Paris;Lyon;Marseille;Tokyo;Osaka;Kyoto;São Paulo;Rio de Janeiro;Madrid;Barcelona;Sevilla;Rome;Milan;Naples;New York;Los Angeles;Chicago;Houston;London;Manchester;Birmingham;Beijing;Shanghai;Shenzhen;Mumbai;Delhi;Bengaluru;Moscow;Saint Petersburg;Warsaw;Kraków;Łódź;Stockholm;Göteborg;Oslo;Bergen;Copenhagen;Aarhus;Helsinki;Amsterdam;Rotterdam;Brussels;Antwerp;Zürich;Genève;Vienna;Graz;Lisbon;Porto;Dublin;Cork;Athens;Istanbul;Ankara;Cairo;Lagos;Nairobi;Cape Town;Johannesburg;Mexico City;Guadalajara;Toronto;Montréal;Vancouver;Buenos Aires;Santiago;Bogotá;Lima;Sydney;Melbourne;Auckland;Seoul;Busan;Hanoi;Ho Chi Minh City;Bangkok;Jakarta;Tel Aviv;Prague;Brno;Budapest;Accra;Casablanca;Reykjavík;Springfield;Portland;Richmond;Cambridge;Victoria;Alexandria;Valencia;Córdoba'.split(';');
const CITY_PREFIX = ['New ', 'Port ', 'San ', 'Saint-', 'North ', 'East ', 'Lake ', 'Fort ', 'Bad ', 'Villa ', '', '', '', ''];
const CITY_SUFFIX = ['ville', 'burg', 'ton', 'field', 'haven', 'stadt', 'polis', 'by', 'ford', 'mouth', ' Springs', ' Heights', 'ía', 'ów'];
const LANGUAGES = 'English;German;French;Japanese;Portuguese;Spanish;Italian;Mandarin;Hindi;Russian;Polish;Swedish;Norwegian;Danish;Finnish;Dutch;Greek;Turkish;Arabic;Swahili;Korean;Vietnamese;Thai;Indonesian;Hebrew;Czech;Hungarian;Icelandic;Yoruba;Tamil'.split(';');
const AWARD_KIND = 'Prize;Medal;Award;Cup;Trophy'.split(';');
const EVENT_KIND = 'Festival;Summit;Championship;Expo;Conference;Marathon;Biennale;Grand Prix'.split(';');
const SONG_WORD = 'Love;Heart;Night;Fire;Rain;Home;Gold;Blue;Wings;Stars;Echo;Ghost;Sugar;Thunder;Paradise'.split(';');

// ---------- deterministic randomness ----------

/** A 32-bit hash of numbers (murmur-like mixing): the seed of one entity's facts. */
function mix(...xs: number[]): number {
  let h = 0x811c9dc5;
  for (const x of xs) {
    h = Math.imul(h ^ (x >>> 0), 0x01000193);
    h ^= h >>> 13;
    h = Math.imul(h, 0x5bd1e995);
    h ^= h >>> 15;
  }
  return h >>> 0;
}

/** The one seeded source (core's Rng, mulberry32) with the generator's heavy-tailed counts. */
class R extends Rng {
  /** A heavy-tailed count ≥ min: P(k) ~ k^-2.2 roughly, capped. */
  tail(min: number, mean: number, cap: number): number {
    const u = this.next();
    const k = Math.floor(min + (mean - min) * 0.55 * (Math.pow(1 - u, -1 / 1.8) - 1));
    return Math.min(cap, Math.max(min, k));
  }
}

// ---------- the world ----------

type Kind = 'iri' | 'int' | 'decimal' | 'date' | 'year';

interface ClassSpec {
  key: string;
  label: string;
  /** Entities at scale 1. */
  base: number;
  /** Least count at any scale (fixed-size vocabularies keep theirs). */
  min: number;
  fixed?: number;
}

const CLASSES: ClassSpec[] = [
  { key: 'Country', label: 'country', base: COUNTRIES.length, min: COUNTRIES.length, fixed: COUNTRIES.length },
  { key: 'Language', label: 'language', base: LANGUAGES.length, min: LANGUAGES.length, fixed: LANGUAGES.length },
  { key: 'Genre', label: 'genre', base: GENRES.length, min: GENRES.length, fixed: GENRES.length },
  { key: 'Industry', label: 'industry', base: INDUSTRIES.length, min: INDUSTRIES.length, fixed: INDUSTRIES.length },
  { key: 'ProductCategory', label: 'product category', base: CATEGORIES.length, min: CATEGORIES.length, fixed: CATEGORIES.length },
  { key: 'City', label: 'city', base: 20_000, min: REAL_CITIES.length },
  { key: 'University', label: 'university', base: 5_000, min: 20 },
  { key: 'Company', label: 'company', base: 160_000, min: 40 },
  { key: 'Team', label: 'sports team', base: 4_000, min: 10 },
  { key: 'Award', label: 'award', base: 1_500, min: 10 },
  { key: 'Person', label: 'person', base: 2_300_000, min: 300 },
  { key: 'Film', label: 'film', base: 300_000, min: 60 },
  { key: 'Book', label: 'book', base: 450_000, min: 60 },
  { key: 'Album', label: 'album', base: 160_000, min: 30 },
  { key: 'Song', label: 'song', base: 1_100_000, min: 100 },
  { key: 'Product', label: 'product', base: 260_000, min: 40 },
  { key: 'Event', label: 'event', base: 60_000, min: 20 },
];

/** The relations: [key, label, domain, range (class key or literal kind)]. */
export const RELATIONS: [string, string, string, string][] = [
  ['country', 'country', 'City', 'Country'],
  ['population', 'population', 'City', 'int'],
  ['locatedIn', 'located in', 'University', 'City'],
  ['foundingYear', 'founding year', 'University', 'year'],
  ['students', 'number of students', 'University', 'int'],
  ['headquarters', 'headquarters', 'Company', 'City'],
  ['industry', 'industry', 'Company', 'Industry'],
  ['inception', 'inception', 'Company', 'date'],
  ['employees', 'number of employees', 'Company', 'int'],
  ['revenue', 'revenue', 'Company', 'decimal'],
  ['parentCompany', 'parent company', 'Company', 'Company'],
  ['homeCity', 'home city', 'Team', 'City'],
  ['sport', 'sport', 'Team', 'string'],
  ['awardedBy', 'awarded by', 'Award', 'Company'],
  ['birthDate', 'date of birth', 'Person', 'date'],
  ['birthPlace', 'place of birth', 'Person', 'City'],
  ['citizenOf', 'citizenship', 'Person', 'Country'],
  ['employer', 'employer', 'Person', 'Company'],
  ['educatedAt', 'educated at', 'Person', 'University'],
  ['spouse', 'spouse', 'Person', 'Person'],
  ['knows', 'knows', 'Person', 'Person'],
  ['height', 'height', 'Person', 'decimal'],
  ['playsFor', 'member of sports team', 'Person', 'Team'],
  ['director', 'director', 'Film', 'Person'],
  ['castMember', 'cast member', 'Film', 'Person'],
  ['genre', 'genre', 'Film', 'Genre'],
  ['originalLanguage', 'original language', 'Film', 'Language'],
  ['releaseDate', 'release date', 'Film', 'date'],
  ['duration', 'duration', 'Film', 'int'],
  ['award', 'award received', 'Film', 'Award'],
  ['author', 'author', 'Book', 'Person'],
  ['publisher', 'publisher', 'Book', 'Company'],
  ['publicationYear', 'publication year', 'Book', 'year'],
  ['pages', 'number of pages', 'Book', 'int'],
  ['performer', 'performer', 'Album', 'Person'],
  ['recordLabel', 'record label', 'Album', 'Company'],
  ['partOf', 'part of', 'Song', 'Album'],
  ['manufacturer', 'manufacturer', 'Product', 'Company'],
  ['category', 'product category', 'Product', 'ProductCategory'],
  ['price', 'price', 'Product', 'decimal'],
  ['location', 'location', 'Event', 'City'],
  ['startDate', 'start date', 'Event', 'date'],
];

export const MAX_SCALE = 20;

export interface Fact {
  p: string;
  /** IRI, or a literal's lexical form with its datatype / language. */
  o: string;
  kind: 'iri' | 'literal';
  datatype?: string;
  lang?: string;
}

export class World {
  readonly counts = new Map<string, number>();
  constructor(
    readonly scale: number,
    readonly seed: number,
  ) {
    if (!Number.isFinite(scale) || scale <= 0) throw new AskgraphError('BAD_REQUEST', `--scale must be a number > 0, got ${scale}`);
    if (scale > MAX_SCALE) throw new AskgraphError('BAD_REQUEST', `--scale ${scale} is over the largest supported (${MAX_SCALE}, about ${MAX_SCALE * 27}M triples)`);
    if (!Number.isInteger(seed) || seed < 0) throw new AskgraphError('BAD_REQUEST', `--seed must be an integer ≥ 0, got ${seed}`);
    for (const c of CLASSES) this.counts.set(c.key, c.fixed ?? Math.max(c.min, Math.round(c.base * scale)));
  }

  get classes(): { key: string; label: string; count: number }[] {
    return CLASSES.map((c) => ({ key: c.key, label: c.label, count: this.count(c.key) }));
  }

  count(cls: string): number {
    return this.counts.get(cls) ?? 0;
  }

  iri(cls: string, i: number): string {
    return `${NS}${cls.toLowerCase()}/${i}`;
  }
  classIri(cls: string): string {
    return `${NS}class/${cls}`;
  }
  propIri(p: string): string {
    return `${NS}prop/${p}`;
  }

  private rng(cls: string, i: number, salt = 0): R {
    return new R(mix(this.seed, CLASSES.findIndex((c) => c.key === cls), i, salt));
  }

  /** A power-law pick of an entity of `cls`: P(rank k) ~ 1/k, ranks permuted per relation. */
  private skewed(r: R, cls: string, rel: number): number {
    const n = this.count(cls);
    const k = Math.min(n - 1, Math.floor(Math.pow(n + 1, r.next())) - 1);
    return (k * 1_000_003 + mix(this.seed, rel) ) % n;
  }
  private uniform(r: R, cls: string): number {
    return r.int(this.count(cls));
  }

  /** The person's name (a pure function of i): collisions are the point. */
  personName(i: number): { name: string; typo?: string; alt?: string; lang?: string } {
    const r = this.rng('Person', i, 1);
    // Zipf-ish on names too: common names are common.
    const first = FIRST[Math.min(FIRST.length - 1, Math.floor(Math.pow(FIRST.length + 1, r.next())) - 1)] ?? 'Alex';
    const last = LAST[Math.min(LAST.length - 1, Math.floor(Math.pow(LAST.length + 1, r.next())) - 1)] ?? 'Doe';
    const cjk = /[\u3040-\u9fff]/.test(first + last);
    const middle = !cjk && r.chance(0.25) ? ` ${String.fromCharCode(65 + r.int(26))}.` : '';
    const name = cjk ? (/[\u3040-\u9fff]/.test(last) ? last + first : `${first} ${last}`) : `${first}${middle} ${last}`;
    const out: { name: string; typo?: string; alt?: string; lang?: string } = { name };
    if (r.chance(0.02)) out.typo = typo(name, r);
    if (r.chance(0.06)) out.alt = `${Array.from(first)[0] ?? ''}. ${last}`;
    return out;
  }

  title(cls: string, i: number): string {
    const r = this.rng(cls, i, 2);
    // Shared pattern space across films and books: titles collide across classes and within.
    const a = r.pick(ADJ);
    const n = r.pick(NOUN);
    const t = r.int(10);
    let s = t < 4 ? `The ${a} ${n}` : t < 6 ? `${a} ${n}` : t < 8 ? `${n} of ${r.pick(PLACEWORD)}` : `The ${n} ${r.pick(['Affair', 'Years', 'Code', 'Club', 'Song', 'Diaries'])}`;
    if (r.chance(0.08)) s += ` ${r.pick(['II', 'III', '2', 'Returns', 'Reloaded'])}`;
    if (r.chance(0.03)) s = s.toUpperCase();
    return s;
  }

  label(cls: string, i: number): { label: string; lang?: string; extra?: [string, string][]; typo?: string; alt?: string } {
    switch (cls) {
      case 'Country': {
        const c = COUNTRIES[i] ?? ['Country', 'Land', 'Pays', '国'];
        return { label: c[0], extra: [[c[1], 'de'], [c[2], 'fr'], [c[3], 'ja']] };
      }
      case 'Language':
        return { label: LANGUAGES[i] ?? 'Language' };
      case 'Genre':
        return { label: GENRES[i] ?? 'Genre' };
      case 'Industry':
        return { label: INDUSTRIES[i] ?? 'Industry' };
      case 'ProductCategory':
        return { label: CATEGORIES[i] ?? 'Category' };
      case 'City': {
        if (i < REAL_CITIES.length) return { label: REAL_CITIES[i] ?? 'City' };
        const r = this.rng(cls, i, 1);
        const base = r.chance(0.5) ? r.pick(LAST) : r.pick(NOUN);
        return { label: `${r.pick(CITY_PREFIX)}${base}${r.pick(CITY_SUFFIX)}` };
      }
      case 'University': {
        const city = this.label('City', this.uniform(this.rng(cls, i, 3), 'City')).label;
        const r = this.rng(cls, i, 1);
        return { label: r.chance(0.5) ? `University of ${city}` : r.chance(0.5) ? `${city} Institute of Technology` : `${r.pick(LAST)} College` };
      }
      case 'Company': {
        const r = this.rng(cls, i, 1);
        const head = r.chance(0.4) ? r.pick(LAST) : r.pick(CO_WORD);
        const sfx = r.pick(CO_SUFFIX);
        return { label: `${head} ${r.pick(CO_KIND)}${sfx ? ' ' + sfx : ''}` };
      }
      case 'Team': {
        const r = this.rng(cls, i, 1);
        const city = this.label('City', this.uniform(this.rng(cls, i, 3), 'City')).label;
        return { label: `${city} ${r.pick(['United', 'Rovers', 'Tigers', 'Wolves', 'FC', 'Athletic', 'Stars', 'Giants'])}` };
      }
      case 'Award': {
        const r = this.rng(cls, i, 1);
        return { label: `${r.pick(LAST)} ${r.pick(AWARD_KIND)}${r.chance(0.3) ? ' for ' + r.pick(GENRES) : ''}` };
      }
      case 'Person':
        return { ...(({ name, typo, alt }) => ({ label: typo ?? name, ...(typo ? { alt: name } : alt ? { alt } : {}) }))(this.personName(i)) };
      case 'Film':
      case 'Book':
      case 'Album':
        return { label: this.title(cls, i) };
      case 'Song': {
        const r = this.rng(cls, i, 1);
        return { label: r.chance(0.5) ? `${r.pick(SONG_WORD)} ${r.pick(NOUN)}` : `${r.pick(ADJ)} ${r.pick(SONG_WORD)}` };
      }
      case 'Product': {
        const r = this.rng(cls, i, 1);
        return { label: `${r.pick(CO_WORD)} ${r.pick(CATEGORIES)} ${r.pick(['X', 'Pro', 'Lite', 'Max', 'S', 'Mini', ''])}${r.int(20) + 1}`.replace('  ', ' ') };
      }
      case 'Event': {
        const r = this.rng(cls, i, 1);
        const city = this.label('City', this.uniform(this.rng(cls, i, 3), 'City')).label;
        return { label: `${city} ${r.pick(EVENT_KIND)} ${1950 + r.int(75)}` };
      }
    }
    return { label: `${cls} ${i}` };
  }

  /** Every fact of entity i of `cls` except rdf:type and labels (a fact may repeat: see ntriples). */
  facts(cls: string, i: number): Fact[] {
    const r = this.rng(cls, i, 7);
    const f: Fact[] = [];
    const rel = (p: string, target: string, j: number) => f.push({ p, o: this.iri(target, j), kind: 'iri' });
    const lit = (p: string, v: string, k: Kind) =>
      f.push({ p, o: v, kind: 'literal', datatype: XSD + (k === 'int' ? 'integer' : k === 'decimal' ? 'decimal' : k === 'date' ? 'date' : 'gYear') });
    const relNo = (p: string) => RELATIONS.findIndex((x) => x[0] === p);
    const date = (from: number, to: number) => {
      const y = from + r.int(to - from + 1);
      return `${y}-${String(1 + r.int(12)).padStart(2, '0')}-${String(1 + r.int(28)).padStart(2, '0')}`;
    };
    switch (cls) {
      case 'City':
        rel('country', 'Country', i < REAL_CITIES.length ? cityCountry(i) : this.skewed(r, 'Country', relNo('country')));
        lit('population', String(Math.round(2000 * Math.pow(5000, r.next()) * (i < REAL_CITIES.length ? 50 : 1))), 'int');
        break;
      case 'University':
        rel('locatedIn', 'City', this.uniform(this.rng(cls, i, 3), 'City'));
        lit('foundingYear', String(1088 + r.int(930)), 'year');
        lit('students', String(500 + r.int(60_000)), 'int');
        break;
      case 'Company':
        rel('headquarters', 'City', this.skewed(r, 'City', relNo('headquarters')));
        rel('industry', 'Industry', this.skewed(r, 'Industry', relNo('industry')));
        if (r.chance(0.2)) rel('industry', 'Industry', this.uniform(r, 'Industry'));
        lit('inception', date(1850, 2024), 'date');
        lit('employees', String(Math.round(Math.pow(200_000, r.next()) + 1)), 'int');
        if (r.chance(0.7)) lit('revenue', (Math.pow(10, 5 + r.next() * 6)).toFixed(2), 'decimal');
        if (r.chance(0.1) && i > 0) rel('parentCompany', 'Company', this.skewed(r, 'Company', relNo('parentCompany')));
        break;
      case 'Team':
        rel('homeCity', 'City', this.uniform(this.rng(cls, i, 3), 'City'));
        f.push({ p: 'sport', o: r.pick(SPORTS), kind: 'literal' });
        break;
      case 'Award':
        rel('awardedBy', 'Company', this.skewed(r, 'Company', relNo('awardedBy')));
        break;
      case 'Person':
        lit('birthDate', date(1920, 2008), 'date');
        rel('birthPlace', 'City', this.skewed(r, 'City', relNo('birthPlace')));
        if (r.chance(0.85)) rel('citizenOf', 'Country', this.skewed(r, 'Country', relNo('citizenOf')));
        if (r.chance(0.03)) rel('citizenOf', 'Country', this.uniform(r, 'Country'));
        if (r.chance(0.55)) rel('employer', 'Company', this.skewed(r, 'Company', relNo('employer')));
        if (r.chance(0.35)) rel('educatedAt', 'University', this.skewed(r, 'University', relNo('educatedAt')));
        if (r.chance(0.08)) rel('spouse', 'Person', this.uniform(r, 'Person'));
        for (let k = r.chance(0.4) ? r.tail(1, 3, 200) : 0; k > 0; k--) rel('knows', 'Person', this.skewed(r, 'Person', relNo('knows')));
        if (r.chance(0.2)) lit('height', (1.45 + r.next() * 0.6).toFixed(2), 'decimal');
        if (r.chance(0.02)) rel('playsFor', 'Team', this.skewed(r, 'Team', relNo('playsFor')));
        break;
      case 'Film':
        rel('director', 'Person', this.skewed(r, 'Person', relNo('director')));
        for (let k = r.tail(1, 4, 60); k > 0; k--) rel('castMember', 'Person', this.skewed(r, 'Person', relNo('castMember')));
        rel('genre', 'Genre', this.skewed(r, 'Genre', relNo('genre')));
        if (r.chance(0.3)) rel('genre', 'Genre', this.uniform(r, 'Genre'));
        rel('originalLanguage', 'Language', this.skewed(r, 'Language', relNo('originalLanguage')));
        lit('releaseDate', date(1910, 2025), 'date');
        lit('duration', String(70 + r.int(130)), 'int');
        if (r.chance(0.03)) rel('award', 'Award', this.skewed(r, 'Award', relNo('award')));
        break;
      case 'Book':
        rel('author', 'Person', this.skewed(r, 'Person', relNo('author')));
        if (r.chance(0.1)) rel('author', 'Person', this.uniform(r, 'Person'));
        rel('publisher', 'Company', this.skewed(r, 'Company', relNo('publisher')));
        lit('publicationYear', String(1700 + r.int(326)), 'year');
        if (r.chance(0.6)) lit('pages', String(40 + r.int(1200)), 'int');
        break;
      case 'Album':
        rel('performer', 'Person', this.skewed(r, 'Person', relNo('performer')));
        rel('recordLabel', 'Company', this.skewed(r, 'Company', relNo('recordLabel')));
        break;
      case 'Song':
        rel('partOf', 'Album', this.skewed(r, 'Album', relNo('partOf')));
        break;
      case 'Product':
        rel('manufacturer', 'Company', this.skewed(r, 'Company', relNo('manufacturer')));
        rel('category', 'ProductCategory', this.skewed(r, 'ProductCategory', relNo('category')));
        lit('price', (5 + Math.pow(3000, r.next())).toFixed(2), 'decimal');
        break;
      case 'Event':
        rel('location', 'City', this.uniform(this.rng(cls, i, 3), 'City'));
        lit('startDate', date(1950, 2025), 'date');
        break;
    }
    return f;
  }

  /** The N-Triples of entity i of `cls`. */
  ntriples(cls: string, i: number): string[] {
    const s = `<${this.iri(cls, i)}>`;
    const out = [`${s} <${RDF_TYPE}> <${this.classIri(cls)}> .`];
    const l = this.label(cls, i);
    out.push(`${s} <${RDFS}label> ${literal(l.label, undefined, 'en')} .`);
    for (const [v, lang] of l.extra ?? []) out.push(`${s} <${RDFS}label> ${literal(v, undefined, lang)} .`);
    if (l.alt) out.push(`${s} <${SKOS_ALT}> ${literal(l.alt, undefined, 'en')} .`);
    for (const fact of this.facts(cls, i)) {
      out.push(`${s} <${this.propIri(fact.p)}> ${fact.kind === 'iri' ? `<${fact.o}>` : literal(fact.o, fact.datatype, fact.lang)} .`);
    }
    // a heavy-tailed pick may draw the same object twice (knows, cast member): the graph is a set
    return [...new Set(out)];
  }

  /** Class and property terms with labels, domains and ranges. */
  schemaTriples(): string[] {
    const out: string[] = [];
    for (const c of CLASSES) {
      out.push(`<${this.classIri(c.key)}> <${RDF_TYPE}> <${RDFS}Class> .`);
      out.push(`<${this.classIri(c.key)}> <${RDFS}label> ${literal(c.label, undefined, 'en')} .`);
    }
    for (const [p, label, dom, range] of RELATIONS) {
      const iri = `<${this.propIri(p)}>`;
      out.push(`${iri} <${RDFS}label> ${literal(label, undefined, 'en')} .`);
      out.push(`${iri} <${RDFS}domain> <${this.classIri(dom)}> .`);
      const lit = { int: 'integer', decimal: 'decimal', date: 'date', year: 'gYear', string: 'string' }[range];
      out.push(`${iri} <${RDFS}range> <${lit ? XSD + lit : this.classIri(range)}> .`);
    }
    return out;
  }
}

/** The country of the i-th real city (by the order of REAL_CITIES). */
function cityCountry(i: number): number {
  const byCity = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 10, 10, 11, 11, 11, 12, 12, 13, 13, 14, 14, 15, 16, 16, 17, 17, 18, 18, 19, 19, 20, 20, 21, 21, 22, 23, 23, 24, 25, 26, 27, 27, 28, 28, 29, 29, 29, 30, 31, 32, 33, 34, 34, 35, 36, 36, 37, 37, 38, 39, 40, 41, 41, 42, 43, 44, 45, 6, 6, 6, 7, 29, 24, 4, 30];
  return byCity[i] ?? 0;
}

function typo(s: string, r: R): string {
  const chars = Array.from(s);
  const letters = chars.map((c, k) => (/\p{L}/u.test(c) ? k : -1)).filter((k) => k > 0 && k < chars.length - 1);
  if (letters.length < 2) return s;
  const k = r.pick(letters);
  const op = r.int(3);
  if (op === 0 && /\p{L}/u.test(chars[k + 1] ?? '')) [chars[k], chars[k + 1]] = [chars[k + 1] ?? '', chars[k] ?? ''];
  else if (op === 1) chars.splice(k, 1);
  else chars.splice(k, 0, chars[k] ?? '');
  return chars.join('');
}

/** An N-Triples literal. */
export function literal(v: string, datatype?: string, lang?: string): string {
  const esc = v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
  return lang ? `"${esc}"@${lang}` : datatype && datatype !== XSD + 'string' ? `"${esc}"^^<${datatype}>` : `"${esc}"`;
}

/** A question about the graph with its gold answers (scripts/bench-large.ts ask, scripts/bench-replicas.ts). */
export interface Question {
  kind: string;
  question: string;
  /** SPARQL whose ?x values are the gold answers (IRIs or literal lexical forms). */
  gold: string;
  /** Those values, asked of the endpoint when the question was made. */
  answers: Set<string>;
}

const P = (p: string) => `<${NS}prop/${p}>`;

/** Whether exactly one entity has this English name (rdfs:label or skos:altLabel) in the endpoint's graph. */
export async function labelIsUnique(ex: EndpointExecutor, name: string): Promise<boolean> {
  const l = literal(name, undefined, 'en');
  const n = await ex.count(`SELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { { ?s <${RDFS}label> ${l} } UNION { ?s <${SKOS_ALT}> ${l} } }`, { timeoutMs: 60_000 });
  return n === 1;
}

/**
 * Questions of several kinds about entities whose label is unique in the graph (asked of the endpoint),
 * seeded; gold answers by SPARQL from the entity's IRI (the generator picked the entity, not the label).
 */
export async function questions(world: World, ex: EndpointExecutor, n: number, seed: number): Promise<Question[]> {
  let s = seed >>> 0 || 1;
  const rand = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const kinds: { kind: string; cls: string; ask: (l: string) => string; gold: (iri: string) => string }[] = [
    { kind: 'birthplace', cls: 'Person', ask: (l) => `what is the place of birth of ${l}`, gold: (e) => `SELECT ?x WHERE { <${e}> ${P('birthPlace')} ?x }` },
    { kind: 'birthdate', cls: 'Person', ask: (l) => `when was ${l} born`, gold: (e) => `SELECT ?x WHERE { <${e}> ${P('birthDate')} ?x }` },
    { kind: 'employer', cls: 'Person', ask: (l) => `what is the employer of ${l}`, gold: (e) => `SELECT ?x WHERE { <${e}> ${P('employer')} ?x }` },
    { kind: 'two-hop', cls: 'Person', ask: (l) => `what country is the place of birth of ${l} in`, gold: (e) => `SELECT ?x WHERE { <${e}> ${P('birthPlace')} ?c . ?c ${P('country')} ?x }` },
    { kind: 'reverse', cls: 'Person', ask: (l) => `which films did ${l} direct`, gold: (e) => `SELECT ?x WHERE { ?x ${P('director')} <${e}> }` },
    { kind: 'count', cls: 'Person', ask: (l) => `how many people does ${l} know`, gold: (e) => `SELECT (COUNT(DISTINCT ?y) AS ?x) WHERE { <${e}> ${P('knows')} ?y }` },
    { kind: 'city-country', cls: 'City', ask: (l) => `which country is ${l} in`, gold: (e) => `SELECT ?x WHERE { <${e}> ${P('country')} ?x }` },
    { kind: 'population', cls: 'City', ask: (l) => `what is the population of ${l}`, gold: (e) => `SELECT ?x WHERE { <${e}> ${P('population')} ?x }` },
    { kind: 'event-location', cls: 'Event', ask: (l) => `where was the ${l} held`, gold: (e) => `SELECT ?x WHERE { <${e}> ${P('location')} ?x }` },
    { kind: 'event-date', cls: 'Event', ask: (l) => `what is the start date of ${l}`, gold: (e) => `SELECT ?x WHERE { <${e}> ${P('startDate')} ?x }` },
  ];
  const out: Question[] = [];
  const perKind = Math.ceil(n / kinds.length);
  for (const k of kinds) {
    let made = 0;
    for (let tries = 0; made < perKind && tries < perKind * 40; tries++) {
      const i = Math.floor(rand() * world.count(k.cls));
      const iri = world.iri(k.cls, i);
      const name = world.label(k.cls, i).label;
      // a label another entity also has (name collisions are common) makes the question ambiguous: skip it
      if (!(await labelIsUnique(ex, name))) continue;
      const gold = k.gold(iri);
      const g = await ex.select(gold, { timeoutMs: 30_000 });
      if (g.rows.length === 0 || (k.kind === 'reverse' && g.rows.length > 20)) continue;
      const answers = new Set(g.rows.map((r) => r.x?.value).filter((v): v is string => v !== undefined));
      out.push({ kind: k.kind, question: k.ask(name), gold, answers });
      made++;
    }
  }
  return out.slice(0, n);
}

/** Right: exactly the gold answers (as sets of values). */
export function sameAnswers(got: Iterable<string>, gold: Set<string>): boolean {
  const g = new Set(got);
  return g.size === gold.size && [...g].every((v) => gold.has(v));
}

export interface Manifest {
  seed: number;
  scale: number;
  graph: string;
  triples: number;
  files: string[];
  entities: Record<string, number>;
  predicates: Record<string, number>;
  seconds: number;
}

/** Writes the graph as N-Triples parts into `outDir`; returns the manifest. Memory: one part's buffer. */
export function writeGraph(outDir: string, opts: { scale: number; seed: number; partTriples?: number; onProgress?: (triples: number) => void }): Manifest {
  const t0 = Date.now();
  const world = new World(opts.scale, opts.seed);
  const partTriples = opts.partTriples ?? 2_000_000;
  if (!(partTriples >= 1000)) throw new AskgraphError('BAD_REQUEST', `--part must be ≥ 1000, got ${partTriples}`);
  fs.mkdirSync(outDir, { recursive: true });
  for (const f of fs.readdirSync(outDir)) if (/^part-\d+\.nt$/.test(f)) fs.unlinkSync(path.join(outDir, f));
  const files: string[] = [];
  const predicates: Record<string, number> = {};
  let fd = -1;
  let inPart = 0;
  let total = 0;
  let buf: string[] = [];
  let bufLen = 0;
  const flush = () => {
    if (buf.length && fd >= 0) fs.writeSync(fd, buf.join(''));
    buf = [];
    bufLen = 0;
  };
  const open = () => {
    flush();
    if (fd >= 0) fs.closeSync(fd);
    const name = `part-${String(files.length).padStart(3, '0')}.nt`;
    files.push(name);
    fd = fs.openSync(path.join(outDir, name), 'w');
    inPart = 0;
  };
  const emit = (lines: string[]) => {
    if (fd < 0 || inPart >= partTriples) open();
    for (const l of lines) {
      buf.push(l, '\n');
      bufLen += l.length + 1;
      const p = l.slice(l.indexOf('> <') + 3, l.indexOf('> ', l.indexOf('> <') + 3));
      predicates[p] = (predicates[p] ?? 0) + 1;
    }
    inPart += lines.length;
    total += lines.length;
    if (bufLen > 4_000_000) {
      flush();
      opts.onProgress?.(total);
    }
  };
  emit(world.schemaTriples());
  for (const c of world.classes) for (let i = 0; i < c.count; i++) emit(world.ntriples(c.key, i));
  flush();
  if (fd >= 0) fs.closeSync(fd);
  const manifest: Manifest = {
    seed: opts.seed,
    scale: opts.scale,
    graph: GRAPH,
    triples: total,
    files,
    entities: Object.fromEntries(world.classes.map((c) => [c.key, c.count])),
    predicates,
    seconds: (Date.now() - t0) / 1000,
  };
  fs.writeFileSync(path.join(outDir, 'MANIFEST.json'), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

function main(argv: string[]): void {
  const arg = (name: string, dflt?: string) => {
    const k = argv.indexOf(name);
    return k >= 0 ? argv[k + 1] : dflt;
  };
  const out = arg('--out');
  if (!out) throw new AskgraphError('BAD_REQUEST', 'usage: build-large-graph --out DIR [--scale 1] [--seed 1] [--part 2000000]');
  const scale = Number(arg('--scale', '1'));
  const seed = Number(arg('--seed', '1'));
  const part = Number(arg('--part', '2000000'));
  let last = 0;
  const m = writeGraph(out, {
    scale,
    seed,
    partTriples: part,
    onProgress: (n) => {
      if (n - last >= 1_000_000) {
        last = n;
        process.stderr.write(`${(n / 1e6).toFixed(1)}M triples, ${Math.round(process.memoryUsage().rss / 2 ** 20)} MiB RSS\n`);
      }
    },
  });
  const rssMiB = Math.round(process.resourceUsage().maxRSS / 1024);
  console.log(`${m.triples.toLocaleString('en-US')} triples in ${m.files.length} files under ${out} in ${m.seconds.toFixed(1)} s (peak RSS ${rssMiB} MiB)`);
}

if (require.main === module) {
  try {
    main(process.argv.slice(2));
  } catch (e) {
    const err = e as { code?: string; message: string };
    console.error(`build-large-graph: ${err.code ? err.code + ': ' : ''}${err.message}`);
    process.exit(2);
  }
}
