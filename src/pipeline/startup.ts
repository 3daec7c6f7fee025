/**
 * Where a cold start spends its time: one entry per phase of createGateway (and of the CLI around it),
 * wall-clock and CPU time (user + system of this process, all its threads: the ONNX runtime's included;
 * the store process reports its own CPU in the executor's BuildInfo). `askgraph ask --explain` prints it.
 */
export interface StartupPhase {
  phase: string;
  wallMs: number;
  cpuMs: number;
  note?: string;
}

export class PhaseClock {
  readonly phases: StartupPhase[] = [];
  private wall = performance.now();
  private cpu = cpuMs();

  /** Ends the current phase under `phase` and starts the next. */
  mark(phase: string, note?: string): void {
    const wall = performance.now();
    const cpu = cpuMs();
    this.phases.push({ phase, wallMs: wall - this.wall, cpuMs: cpu - this.cpu, ...(note ? { note } : {}) });
    this.wall = wall;
    this.cpu = cpu;
  }
}

/** CPU time of this process so far (user + system, all threads), in ms. */
export function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
