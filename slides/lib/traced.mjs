// The deck's diagrams come from the emulator's trace of the solution kernels, read through the
// checker (`check --trace-json`, checker/view_json.c): the same run of the same program as the
// HTML report (make check VIEW=1) draws. Each scenario is one kernel of one lab on one small
// case; a diagram takes the records at the lines of its marked excerpt.
//
// The programs are the emulator's build of solutions/ (make build-solutions BACKEND=emu); a
// tree whose lab file differs from the kit's (tests/slides change one) is built on its own, with
// TREE= and TREE_BUILD=, so what is drawn is always the file the deck lists.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { DeckError } from './results.mjs';
import { excerpt } from './excerpts.mjs';

// name -> the lab, kernel variant and case it is traced from (sizes as `check --size` takes them).
export const SCENARIOS = {
  mat_add: { lab: '00-thread-indexing', variant: 'mat_add', size: 'rows=20,cols=24' },
  naive: { lab: '01-matmul-naive', variant: 'naive', size: 'm=32,k=2,n=32' },
  tiled16: { lab: '02-matmul-tiled', variant: 'tiled16', size: 'm=16,k=24,n=32' },
  'neighbored/16': { lab: '03-reduce-divergence', variant: 'neighbored', size: 'n=16,block=16' },
  'neighbored_less/16': { lab: '03-reduce-divergence', variant: 'neighbored_less', size: 'n=16,block=16' },
  'interleaved/16': { lab: '03-reduce-divergence', variant: 'interleaved', size: 'n=16,block=16' },
  'neighbored_float/16': { lab: '07-reduce-float', variant: 'neighbored_float', size: 'n=16,block=16' },
  'neighbored/512': { lab: '03-reduce-divergence', variant: 'neighbored', size: 'n=512,block=512' },
  'neighbored_less/512': { lab: '03-reduce-divergence', variant: 'neighbored_less', size: 'n=512,block=512' },
  'interleaved/512': { lab: '03-reduce-divergence', variant: 'interleaved', size: 'n=512,block=512' },
  unrolling4: { lab: '04-reduce-unrolling', variant: 'unrolling4', size: 'n=64,block=8' },
  unroll_warps8: { lab: '05-reduce-warp-unrolling', variant: 'unroll_warps8', size: 'n=512,block=64' },
  syncwarp8: { lab: '05-reduce-warp-unrolling', variant: 'syncwarp8', size: 'n=512,block=64' },
  shuffle8: { lab: '05-reduce-warp-unrolling', variant: 'shuffle8', size: 'n=256,block=32' },
  recursive: { lab: '06-dynamic-parallelism', variant: 'recursive', size: 'n=100,block=64' },
};

export class Tracer {
  // kit: the folder with the Makefile (and its build); root: the tree whose solutions/ the deck
  // shows; build: the kit's build folder; out: where the traces (and any other tree's programs) go.
  constructor({ kit, root, build, out, excerpts }) {
    Object.assign(this, { kit, root, build, out, excerpts });
    this.traces = new Map();
    this.programs = null;
  }

  make(args) {
    const r = spawnSync('make', ['--no-print-directory', '-C', this.kit, `BUILD=${this.build}`, 'BACKEND=emu', 'EMU_FAST=0', ...args],
      { encoding: 'utf8', env: { ...process.env, MAKEFLAGS: '', MAKELEVEL: '' } });
    if (r.status !== 0) throw new DeckError(`the traced programs do not build (make ${args.join(' ')}):\n${(r.stdout + r.stderr).slice(-3000)}`);
  }

  // Builds, once, the program of every lab a scenario names: the kit's where the lab file is the
  // kit's own, else this tree's.
  ensurePrograms() {
    if (this.programs) return this.programs;
    const labs = [...new Set(Object.values(SCENARIOS).map((s) => s.lab))];
    const same = [], other = [];
    for (const lab of labs) {
      const dir = path.join(this.root, 'solutions', lab);
      if (!fs.existsSync(dir)) throw new DeckError(`solutions/${lab} is missing: the deck traces its kernels`);
      const files = fs.readdirSync(dir).filter((f) => f.endsWith('.cu'));
      const kitDir = path.join(this.kit, 'solutions', lab);
      const identical = path.resolve(this.root) === path.resolve(this.kit) ||
        files.every((f) => fs.existsSync(path.join(kitDir, f)) && fs.readFileSync(path.join(dir, f)).equals(fs.readFileSync(path.join(kitDir, f))));
      (identical ? same : other).push(lab);
    }
    const checker = path.join(this.build, 'checker/check');
    const treeBuild = path.join(this.out, 'programs');
    this.make([checker, ...(same.length ? ['build-solutions', `LAB=${same.map((l) => l.slice(0, 2)).join(' ')}`] : [])]);
    if (other.length) this.make([`TREE=${path.join(this.root, 'solutions')}`, `TREE_BUILD=${treeBuild}`, 'build-labs', `LAB=${other.map((l) => l.slice(0, 2)).join(' ')}`]);
    this.programs = { checker, dirs: Object.fromEntries(labs.map((l) => [l, same.includes(l) ? path.join(this.build, 'emu/solutions') : treeBuild])) };
    return this.programs;
  }

  // The checker's JSON of one scenario (run once per build of the deck).
  trace(name) {
    if (this.traces.has(name)) return this.traces.get(name);
    const s = SCENARIOS[name];
    if (!s) throw new DeckError(`no traced scenario '${name}'`);
    const { checker, dirs } = this.ensurePrograms();
    const file = path.join(this.out, 'traces', `${name.replace('/', '-')}.json`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const args = ['--tree', 'solutions', '--build', dirs[s.lab], '--backend', 'emu', '--trace-json', file, '--variant', s.variant, '--size', s.size, s.lab];
    const r = spawnSync(checker, args, { encoding: 'utf8' });
    if (r.status !== 0) throw new DeckError(`tracing ${s.variant} of ${s.lab} (${s.size}) failed: ${r.stderr.trim()}`);
    const t = JSON.parse(fs.readFileSync(file, 'utf8'));
    t.scenario = { name, ...s, command: `check --trace-json --variant ${s.variant} --size ${s.size} ${s.lab}` };
    this.traces.set(name, t);
    return t;
  }

  // The per-lane events of a scenario's records at the lines of an excerpt:
  //   {grid, block, thread, phase, op ('R'|'W'), array, index, line}
  // grid: the launch; phase: barrier interval * 1000 + the warp operations (__syncwarp, shuffles)
  // its warp had passed in that interval, so a step is a barrier or a warp operation. A shuffle
  // is two events per lane: a read of "shfl" at the source lane, and of "offset" at its offset.
  events(name, excerptName) {
    const t = this.trace(name);
    const e = excerpt(this.excerpts, excerptName);
    const suffix = `${path.basename(path.dirname(e.file))}/${path.basename(e.file)}`;
    const inside = (line) => {
      const m = /^(.*):(\d+)$/.exec(line);
      return m && (m[1] === suffix || m[1].endsWith(`/${suffix}`)) && Number(m[2]) >= e.first && Number(m[2]) <= e.last;
    };
    const warpOps = new Map(); // "launch block warp interval" -> operations passed
    const events = [];
    for (const r of t.records) {
      const key = `${r.launch} ${r.block} ${r.warp} ${r.interval}`;
      const passed = warpOps.get(key) ?? 0;
      const phase = r.interval * 1000 + passed;
      const at = inside(r.line);
      if (r.space === 'warp') {
        if (r.kind === 'syncwarp' || r.kind.startsWith('shfl')) warpOps.set(key, passed + 1);
        if (!at || !r.kind.startsWith('shfl')) continue;
        for (const [lane, src] of r.lanes) {
          const base = { grid: r.launch, block: r.block, thread: r.warp * 32 + lane, phase, op: 'R', line: r.line };
          events.push({ ...base, array: 'shfl', index: src }, { ...base, array: 'offset', index: r.arg });
        }
        continue;
      }
      if (!at) continue;
      for (const [lane, index] of r.lanes) {
        const base = { grid: r.launch, block: r.block, thread: r.warp * 32 + lane, phase, array: r.array, index, line: r.line, space: r.space };
        if (r.kind !== 'store') events.push({ ...base, op: 'R' });
        if (r.kind !== 'load') events.push({ ...base, op: 'W' });
      }
    }
    if (events.length === 0) throw new DeckError(`the trace of ${t.scenario.command} has no access at ${e.file}:${e.first}-${e.last} (excerpt ${excerptName})`);
    return events;
  }

  // "Source:" of a figure: the kernels and the runs it is traced from, and the lines drawn.
  source(excerptNames, names, detail = '') {
    const byFile = new Map(); // one file named once: "FILE:29-33, 57-62"
    for (const n of excerptNames) {
      const e = excerpt(this.excerpts, n);
      byFile.set(e.file, [...(byFile.get(e.file) ?? []), `${e.first}-${e.last}`]);
    }
    const lines = [...byFile].map(([file, spans]) => `${file}:${spans.join(', ')}`).join('; ');
    const runs = names.map((n) => {
      const t = this.trace(n);
      const kernels = [...new Set(t.launches.map((l) => l.kernel))].join(', ');
      return `${kernels} (lab ${t.scenario.lab.slice(0, 2)}, variant ${t.variant}, ${t.size})`;
    }).join(' and ');
    return `the emulator's trace of ${runs}${detail ? `, ${detail}` : ''}, at ${lines}, through \`check --trace-json\` (\`make slides\`)`;
  }
}
