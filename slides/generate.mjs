#!/usr/bin/env node
// Assembles the lecture deck's Marp Markdown from
//   slides/sections/*.md        the deck-wide sections (intro, model, measured, summary), and
//   solutions/NN-name/slides.md each lab's section, in its folder of instructor files: teaching
//                               prose and questions, with {{directives}} (README.md lists them)
//   solutions/*/*.cu            code excerpts between '// slide: NAME' and '// slide: end'
//                               (--student: the students' edition, for make handout: a listing
//                               that holds a lab's answer lines, tools/handout/answers.mjs, is
//                               withheld, with a note that says so)
//   the results JSON            every measured number and table (default: the newest H100 report)
//   checker/models/matmul.c     the seed's latency model (linked as it is)
//   tools/labs json             the labs and their titles, from their manifests
//   the emulator's trace         diagrams: the solution kernels as the emulator ran them, read
//                               through the checker (check --trace-json), at the excerpts' lines
// and writes OUT/deck.md. Any missing input is an error that names it: no partial deck.
//
//   node slides/generate.mjs [--root DIR] [--kit DIR] [--build DIR] [--results FILE] [--out DIR] [--student]
//   (--kit: the kit whose Makefile builds the traced programs, default --root; --build: its
//   build folder, default $BUILD or KIT/build)
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { DeckError, newestH100Report, h100Reports, newestPerLab, mergeResults, labEntry, kernelEntry, commandOf } from './lib/results.mjs';
import { loadExcerpts, excerpt, dedented } from './lib/excerpts.mjs';
import { Tracer } from './lib/traced.mjs';
import * as diagrams from './lib/diagrams.mjs';
import * as charts from './lib/charts.mjs';

function parseArgs(argv) {
  const args = { root: process.cwd(), kit: '', build: '', results: '', out: 'build/slides', student: false };
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i].replace(/^--/, '');
    if (key === 'student') { args.student = true; continue; }
    if (!(key in args) || i + 1 >= argv.length) throw new DeckError(`usage: generate.mjs [--root DIR] [--kit DIR] [--build DIR] [--results FILE] [--out DIR] [--student] (bad argument '${argv[i]}')`);
    args[key] = argv[++i];
  }
  return args;
}

const dataUri = (svg) => `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
const escHtml = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// Numbers: shown with the digits the quantity deserves; the span says where the value came from,
// so tests/slides can hold every number of the deck to the JSON.
function fmt(value, digits) {
  if (value == null) return 'n/a';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
const FIELD_DIGITS = { time_ms: 4, gbps: 0, gflops: 0, pct_peak: 1, e2e_ms: 2, cpu_ms: 2 };
// `LAB K1 K2` (one lab) or `LAB/K1 LAB/K2` (across labs) -> [[lab, k1], [lab, k2]].
function kernelRefs(a) {
  if (a.length === 3) return [[a[0], a[1]], [a[0], a[2]]];
  if (a.length === 2 && a.every((x) => x.includes('/'))) return a.map((x) => x.split('/'));
  throw new DeckError(`expected LAB KERNEL KERNEL or LAB/KERNEL LAB/KERNEL, got '${a.join(' ')}'`);
}
// A kernel's size as a reader says it: "2^24 ints", "31,457,280 floats", "1024^3".
export function sizeText(task, size) {
  const f = Object.fromEntries(String(size).split(/\s+/).map((x) => x.split('=')));
  const count = (n) => { const v = Number(n); return Number.isInteger(Math.log2(v)) ? `2^${Math.log2(v)}` : v.toLocaleString('en-US'); };
  if (f.m && f.k && f.n) return f.m === f.k && f.k === f.n ? `${f.m}^3` : `${f.m}x${f.k}x${f.n}`;
  const what = /float/.test(task) ? 'floats' : /int/.test(task) ? 'ints' : 'elements';
  if (f.n) return `${count(f.n)} ${what}`;
  return String(size);
}
const numSpan = (attr, value, digits) => `<span class="num" ${attr} data-digits="${digits}">${fmt(value, digits)}</span>`;

function seedModel(root, buildDir, cases) {
  const exe = path.join(buildDir, 'seed_model');
  const cc = process.env.CC || 'cc';
  try {
    execFileSync(cc, ['-std=c11', '-O2', '-Wall', '-Wextra', `-I${path.join(root, 'checker')}`, `-I${path.join(root, 'common')}`, path.join(root, 'slides/seed_model.c'), path.join(root, 'checker/models/matmul.c'), path.join(root, 'checker/model.c'), '-o', exe], { stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    throw new DeckError(`slides/seed_model.c does not build against checker/models/matmul.c:\n${e.stderr}`);
  }
  return JSON.parse(execFileSync(exe, cases).toString());
}

class Deck {
  // answersIn: for the student edition, which leaves out every listing that holds a lab's
  // answer line, the answer lines a text holds (tools/handout/answers.mjs); null for the full deck.
  constructor(root, results, buildDir, answersIn = null, kit = root, kitBuild = path.join(kit, 'build')) {
    this.root = root;
    this.answersIn = answersIn;
    this.results = results;
    this.buildDir = buildDir;
    this.excerpts = loadExcerpts(root);
    this.tracer = new Tracer({ kit, root, build: kitBuild, out: buildDir, excerpts: this.excerpts });
    this.figures = new Map(); // id -> {svg, facts, source}
    this.seed = null;
    this.seedCases = ['4:2', '1024:16']; // the seed's two worked examples (seed 001)
    this.resultSource = this.sourceOf(results.report.labs.map((l) => l.lab));
  }

  // Where the numbers of these labs come from: one clause per results file (labs measured in
  // another run say so), with device, date and command.
  sourceOf(labDirs) {
    const byFile = new Map();
    for (const d of labDirs) {
      const src = this.results.sources?.[d];
      if (!src) continue;
      if (!byFile.has(src.file)) byFile.set(src.file, { src, labs: [] });
      byFile.get(src.file).labs.push(d.slice(0, 2));
    }
    const one = ({ src }) => `${src.report.device.name}, ${src.report.date.replace('T', ' ').replace('Z', ' UTC')}, \`${commandOf(src)}\` (${path.relative(this.root, path.resolve(this.root, src.file))})`;
    const clauses = [...byFile.values()];
    if (clauses.length === 1) return one(clauses[0]);
    return clauses.map((c) => `lab${c.labs.length > 1 ? 's' : ''} ${c.labs.join(', ')}: ${one(c)}`).join('; ');
  }

  // The lab's manifest entry (tools/labs json): its title, summary, kernels.
  manifest(labDir) {
    this.manifests ??= manifestsOf(this.root);
    const lab = this.manifests.find((l) => l.lab === labDir);
    if (!lab) throw new DeckError(`no lab "${labDir}" (labs/NN-name/lab.manifest)`);
    return lab;
  }

  labDirs() {
    return labDirsOf(this.root);
  }

  // ---- figures: built once on first use ----
  figure(id) {
    if (this.figures.has(id)) return this.figures.get(id);
    const tr = this.tracer;
    const r = this.results.report;
    let fig;
    const [kind, arg] = id.split(':');
    const sizes = (name) => tr.trace(name).sizes;
    switch (kind) {
      case 'reduce-steps': {
        const excerptName = { neighbored: 'neighbored-tree', neighbored_less: 'neighbored-less-tree', interleaved: 'interleaved-tree', neighbored_float: 'neighbored-float-tree' }[arg];
        if (!excerptName) throw new DeckError(`figure ${id}: no such reduction`);
        const run = `${arg}/16`;
        fig = { ...diagrams.reduceSteps(tr.events(run, excerptName).filter((e) => e.block === 0), sizes(run)), source: tr.source([excerptName], [run]) };
        break;
      }
      case 'warp-activity': {
        const names = [['neighbored', 'neighbored-tree'], ['neighbored_less', 'neighbored-less-tree'], ['interleaved', 'interleaved-tree']];
        fig = { ...diagrams.warpActivity(names.map(([name, ex]) => ({ name, events: tr.events(`${name}/512`, ex), block: sizes(`${name}/512`).block }))), source: tr.source(names.map(([, ex]) => ex), names.map(([name]) => `${name}/512`), 'block 0') };
        break;
      }
      case 'coalescing': {
        const at = (name, ex) => tr.events(`${name}/512`, ex).filter((e) => e.block === 0);
        const inter = at('interleaved', 'interleaved-tree'), less = at('neighbored_less', 'neighbored-less-tree');
        const step = (evs, nth) => diagrams.dstIndicesOfPhase(evs, diagrams.phasesOf(evs)[nth]);
        fig = diagrams.laneAddresses([
          { label: 'interleaved, step 1: block_data[tid]', indices: step(inter, 0), elemBytes: 4 },
          { label: 'neighbored_less, step 1: block_data[2*stride*tid]', indices: step(less, 0), elemBytes: 4 },
          { label: 'neighbored_less, step 3', indices: step(less, 2), elemBytes: 4 },
        ]);
        fig.source = tr.source(['interleaved-tree', 'neighbored-less-tree'], ['interleaved/512', 'neighbored_less/512'], 'warp 0 of block 0');
        break;
      }
      case 'naive-warp': {
        const ev = tr.events('naive', 'naive-matmul');
        fig = diagrams.laneAddresses([
          { label: 'a[row * k + i], i = 0', indices: diagrams.warpAccess(ev, { array: 'a' }), elemBytes: 4 },
          { label: 'b[i * n + col], i = 0', indices: diagrams.warpAccess(ev, { array: 'b' }), elemBytes: 4 },
        ]);
        const t = tr.trace('naive');
        fig.source = tr.source(['naive-matmul'], ['naive'], `warp 0 of a ${t.launches[0].block[0]} x ${t.launches[0].block[1]} block`);
        break;
      }
      case 'index-2d': {
        const t = tr.trace('mat_add'), L = t.launches[0];
        if (L.block[0] !== L.block[1]) throw new DeckError(`index-2d: ${t.scenario.command} launched blocks of ${L.block[0]} x ${L.block[1]}; the diagram draws square ones`);
        fig = { ...diagrams.index2d(tr.events('mat_add', 'mat-add-index'), { rows: t.sizes.rows, cols: t.sizes.cols, side: L.block[0], grid_x: L.grid[0], grid_y: L.grid[1] }), source: tr.source(['mat-add-index'], ['mat_add']) };
        break;
      }
      case 'tile-load': {
        const t = tr.trace('tiled16'), tile = t.launches[0].block[0];
        fig = { ...diagrams.tileLoad(tr.events('tiled16', 'tiled-load'), { tile, ...t.sizes }), source: tr.source(['tiled-load'], ['tiled16'], `TILE = ${tile}, block (1, 0)`) };
        break;
      }
      case 'fold': {
        const t = tr.trace('unrolling4');
        const unroll = t.sizes.n / (t.launches[0].grid[0] * t.sizes.block);
        fig = { ...diagrams.fold(tr.events('unrolling4', 'unrolling-fold').filter((e) => e.array === 'data'), { block: t.sizes.block, unroll }), source: tr.source(['unrolling-fold'], ['unrolling4'], `UNROLL = ${unroll}`) };
        break;
      }
      case 'last-warp': {
        const warp0 = (name, ex) => tr.events(name, ex).filter((e) => e.block === 0 && e.thread < 32);
        fig = { ...diagrams.lastWarp(warp0('syncwarp8', 'last-warp-syncwarp'), warp0('unroll_warps8', 'last-warp-volatile')), source: tr.source(['last-warp-syncwarp', 'last-warp-volatile'], ['syncwarp8', 'unroll_warps8'], 'warp 0 of block 0') };
        break;
      }
      case 'shuffle': {
        // warp 0's first call of warp_sum (its warp's sum, before the barrier; the second adds the warps' sums)
        const evs = tr.events('shuffle8', 'warp-sum').filter((e) => e.block === 0 && e.thread < 32);
        const first = Math.min(...evs.map((e) => Math.floor(e.phase / 1000)));
        fig = { ...diagrams.shuffle(evs.filter((e) => Math.floor(e.phase / 1000) === first)), source: tr.source(['warp-sum'], ['shuffle8'], 'the first warp_sum of warp 0, block 0') };
        break;
      }
      case 'recursive': fig = { ...diagrams.recursive(tr.events('recursive', 'recursive-step'), sizes('recursive')), source: tr.source(['recursive-step'], ['recursive']) }; break;
      case 'chart-reduction': {
        const rows = this.ladderRows((k) => k.gbps != null && /^(reduce|sum)_/.test(k.task ?? ''), (k) => ({ gbps: k.gbps }));
        fig = { svg: charts.reductionLadder(rows, r.device.peak_gbps), facts: {}, source: this.sourceOf(rows.labs) };
        break;
      }
      case 'chart-matmul': {
        const rows = this.ladderRows((k) => k.gflops != null, (k) => ({ gflops: k.gflops, pct: k.pct_peak }));
        fig = { svg: charts.matmulLadder(rows, r.device.peak_gflops), facts: {}, source: this.sourceOf(rows.labs) };
        break;
      }
      case 'chart-traffic': {
        // Model and counters of one kernel of one lab at one size: a pair from different sizes
        // (lab 02's tiled32 at 1024^3 and lab 09's at 4096^3) would be no comparison.
        const sectors = (c) => (c && c.gld_sectors != null ? c.gld_sectors + c.gst_sectors : null);
        let rows = this.ladderRows((k) => k.model != null, (k) => ({ model: sectors(k.model), measured: sectors(k.measured) }));
        let countersFrom = '';
        if (!rows.some((x) => x.measured != null)) {
          // Counts do not depend on the run's timing: take Nsight Compute's from the newest H100
          // reports that have them, for the same lab, kernel and size, and say which files.
          const hasNcu = (rep) => rep.labs.some((l) => l.kernels.some((k) => k.measured?.source === 'ncu'));
          const counted = new Map(), used = new Set();
          for (const other of h100Reports(path.join(this.root, 'docs/results'), hasNcu)) {
            const rep = JSON.parse(fs.readFileSync(other, 'utf8'));
            for (const l of rep.labs) for (const k of l.kernels) {
              const key = `${l.lab} ${k.name} ${k.size}`;
              if (k.measured?.source === 'ncu' && !counted.has(key)) counted.set(key, { measured: k.measured, file: other });
            }
          }
          const labs = rows.labs;
          rows = rows.map((x) => {
            const c = counted.get(`${x.lab} ${x.kernel} ${x.size}`);
            if (c) used.add(path.relative(this.root, c.file));
            return { ...x, measured: sectors(c?.measured) };
          });
          rows.labs = labs;
          if (used.size) countersFrom = ` from ${[...used].join(', ')}`;
        }
        const haveMeasured = rows.some((x) => x.measured != null);
        const unmeasured = rows.filter((x) => x.measured == null).map((x) => x.label.replace(/\n.*/, ''));
        fig = { svg: charts.traffic(rows, haveMeasured), facts: { haveMeasured }, source: `${this.sourceOf(rows.labs)}; measured = Nsight Compute counters${haveMeasured ? countersFrom : ' (not in this file: run with PROFILE=1)'}${haveMeasured && unmeasured.length ? `; no counters at the timed size for ${unmeasured.join(', ')}` : ''}` };
        break;
      }
      case 'chart-float': {
        const lab = this.labOf('float');
        const rows = lab.kernels.filter((k) => k.time_ms != null).map((k) => ({ label: k.name, kernel: k.time_ms, e2e: k.e2e_ms, cpu: k.cpu_ms }));
        fig = { svg: charts.floatTiming(rows), facts: {}, source: this.resultSource };
        break;
      }
      case 'chart-seed': fig = { svg: charts.seedCost(this.seedModel().curve), facts: {}, source: 'seed_cycles_naive / seed_cycles_tiled of checker/models/matmul.c, run by slides/seed_model.c (`make slides`)' }; break;
      default: throw new DeckError(`unknown figure '${id}'`);
    }
    this.figures.set(id, fig);
    return fig;
  }

  // Kernels of every lab in teaching order, each kernel once per size (the labs repeat their
  // baseline at its size; lab 09's tiled32 at 4096^3 is another rung than lab 02's at 1024^3),
  // grouped by task and size. rows.labs: the labs they come from.
  ladderRows(keep, values) {
    const seen = new Set(), rows = [];
    for (const lab of this.results.report.labs) for (const k of lab.kernels) {
      const key = `${k.name} ${k.task} ${k.size}`;
      if (!k.correct || !keep(k) || seen.has(key)) continue;
      seen.add(key);
      rows.push({ label: `${lab.lab.slice(0, 2)} ${k.name}`, lab: lab.lab, kernel: k.name, size: k.size, group: sizeText(k.task, k.size), ...values(k) });
    }
    if (rows.length === 0) throw new DeckError(`${this.results.file}: no kernel to plot`);
    // One group per size, in the order of their first kernel.
    const order = [...new Set(rows.map((x) => x.group))];
    rows.sort((a, b) => order.indexOf(a.group) - order.indexOf(b.group));
    rows.labs = [...new Set(rows.map((x) => x.lab))];
    return rows;
  }

  labOf(word) {
    const lab = this.results.report.labs.find((l) => l.lab.includes(word));
    if (!lab) throw new DeckError(`${this.results.file}: no lab named like '${word}'`);
    return lab;
  }

  seedModel() {
    this.seed ??= seedModel(this.root, this.buildDir, this.seedCases);
    return this.seed;
  }

  // ---- directives ----
  // Innermost directives first, so a caption may quote a number: {{figure X | ... {{fact X n}} ...}}.
  expand(text, labDir, where) {
    const inner = /\{\{\s*([\w-]+)([^{}]*)\}\}/g;
    for (let before = null; before !== text; ) {
      before = text;
      text = text.replace(inner, (_, name, rest) => {
        const [argText, caption] = rest.split('|').map((s) => s.trim());
        const args = argText ? argText.split(/\s+/).filter(Boolean) : [];
        const opts = Object.fromEntries(args.filter((a) => a.includes('=')).map((a) => a.split('=')));
        const pos = args.filter((a) => !a.includes('=')).map((a) => (a === '.' ? labDir : a));
        try {
          return this.directive(name, pos, opts, caption, labDir);
        } catch (e) {
          if (e instanceof DeckError) throw new DeckError(`${where}: {{${name}${rest}}}: ${e.message}`);
          throw e;
        }
      });
    }
    if (/\{\{|\}\}/.test(text)) throw new DeckError(`${where}: an unbalanced {{ or }} is left after expanding the directives`);
    return text;
  }

  directive(name, a, opts, caption, labDir) {
    const r = this.results.report;
    switch (name) {
      case 'code': {
        const e = excerpt(this.excerpts, a[0]);
        const answers = this.answersIn?.(e.lines.join('\n')) ?? [];
        if (answers.length) {
          const nums = [...new Set(answers.map((x) => x.lab.slice(0, 2)))];
          const who = nums.length === 1 ? `lab ${nums[0]} asks` : `labs ${nums.slice(0, -1).join(', ')} and ${nums.at(-1)} ask`;
          return `<div class="withheld">The student edition leaves this listing out: it holds lines that ${who} you to write.</div>`;
        }
        return '```cpp\n' + dedented(e).join('\n') + '\n```\n' + `<div class="src">${e.file}, lines ${e.first}-${e.last} (marked <code>// slide: ${e.name}</code>)</div>`;
      }
      case 'figure': {
        const fig = this.figure(a[0]);
        const height = opts.height ? ` style="height:${Number(opts.height)}px"` : '';
        const look = caption ? `<b>Look for:</b> ${caption} ` : '';
        return `<figure class="fig"><img alt="${escHtml(a[0])}" src="${dataUri(fig.svg)}"${height}><figcaption>${look}<span class="src">Source: ${escHtml(fig.source).replace(/`([^`]*)`/g, '<code>$1</code>')}.</span></figcaption></figure>`;
      }
      case 'fact': { // a number a diagram counted: {{fact FIGURE path.to.value}}
        const fig = this.figure(a[0]);
        const value = a[1].split('.').reduce((o, k) => (o == null ? undefined : o[k]), fig.facts);
        if (typeof value !== 'number') throw new DeckError(`figure ${a[0]} has no number at '${a[1]}'`);
        return String(value);
      }
      case 'table': return this.ladderTable(a[0], opts);
      case 'num': { // {{num LAB KERNEL FIELD}}; FIELD may be model.X or measured.X
        const [lab, kernel, field] = a;
        const k = kernelEntry(this.results, lab, kernel);
        const value = field.split('.').reduce((o, f) => (o == null ? undefined : o[f]), k);
        if (typeof value !== 'number') throw new DeckError(`kernel ${lab}/${kernel} has no number '${field}' in ${this.results.file}`);
        const digits = opts.digits != null ? Number(opts.digits) : FIELD_DIGITS[field] ?? 0;
        return numSpan(`data-src="${lab}/${kernel}/${field}"`, value, digits);
      }
      case 'speedup': { // time of the first kernel / time of the second: LAB SLOW FAST, or LAB/SLOW LAB/FAST
        const [slow, fast] = kernelRefs(a);
        const t1 = kernelEntry(this.results, ...slow).time_ms, t2 = kernelEntry(this.results, ...fast).time_ms;
        return numSpan(`data-ratio="${slow.join('/')}/time_ms:${fast.join('/')}/time_ms"`, t1 / t2, 2) + 'x';
      }
      case 'compare': { // "1.09x faster" or "1.06x slower": the first kernel against the second
        const [k1, k2] = kernelRefs(a);
        const t1 = kernelEntry(this.results, ...k1).time_ms, t2 = kernelEntry(this.results, ...k2).time_ms;
        return t1 <= t2
          ? numSpan(`data-ratio="${k2.join('/')}/time_ms:${k1.join('/')}/time_ms"`, t2 / t1, 2) + 'x faster'
          : numSpan(`data-ratio="${k1.join('/')}/time_ms:${k2.join('/')}/time_ms"`, t1 / t2, 2) + 'x slower';
      }
      case 'peak': return numSpan('data-device="peak_gbps"', r.device.peak_gbps, 0);
      case 'peak-gflops': return numSpan('data-device="peak_gflops"', r.device.peak_gflops, 0);
      case 'device': return escHtml(r.device.name);
      case 'date': return escHtml(r.date.slice(0, 10));
      case 'source': return `<p class="src">Source: ${escHtml(this.resultSource).replace(/`([^`]*)`/g, '<code>$1</code>')}.</p>`;
      case 'results-file': return this.results.files.map((f) => `<code>${escHtml(path.relative(this.root, path.resolve(this.root, f)))}</code>`).join(', ');
      case 'command': return this.results.files.map((f) => `<code>${escHtml(commandOf(this.results.sources[this.results.report.labs.find((l) => this.results.sources[l.lab].file === f).lab]))}</code>`).join(', ');
      case 'labtitle': return escHtml(this.manifest(a[0] ?? labDir).title);
      case 'size': return escHtml(kernelEntry(this.results, a[0], a[1]).size);
      case 'seed': { // the model's unit costs ({{seed global_cycles}}) or a case's field ({{seed percent:1024:16}})
        const [key, n, t] = a[0].split(':');
        const s = this.seedModel();
        let v = s[key];
        if (n) {
          if (!this.seedCases.includes(`${n}:${t}`)) this.seedCases.push(`${n}:${t}`), (this.seed = null);
          v = this.seedModel().cases.find((c) => c.n === Number(n) && c.tile === Number(t))?.[key];
        }
        if (typeof v !== 'number') throw new DeckError(`the seed model has no '${a[0]}'`);
        return numSpan(`data-seed="${a[0]}"`, v, key === 'percent' ? 2 : 0);
      }
      case 'seedcost': return this.seedCostTable();
      case 'float-trip': return this.floatTripTable(a[0]);
      case 'labs': return this.labDirs().map((d) => `\`${d}\``).join(', ');
      case 'count': { // {{count labs}}: how many lab folders the kit has
        if (a[0] !== 'labs') throw new DeckError(`can count 'labs', not '${a[0]}'`);
        return numSpan('data-count="labs"', this.labDirs().length, 0);
      }
      case 'cite': { // {{cite FILE | text}}: a figure typed in prose, held to the committed file it is from
        const file = a[0];
        const full = path.join(this.root, file ?? '');
        if (!file || !fs.existsSync(full) || !fs.statSync(full).isFile()) throw new DeckError(`cites '${file}', which is not a file of the kit`);
        if (!caption) throw new DeckError('cites nothing: {{cite FILE | text with the figures}}');
        const body = fs.readFileSync(full, 'utf8');
        const missing = [...caption.matchAll(/\d+(?:,\d{3})*(?:\.\d+)?/g)].map((m) => m[0]).filter((n) => {
          const re = new RegExp(`(?<![\\d.])${n.replace(/[.]/g, '\\.')}(?![\\d])`);
          return !re.test(body) && !re.test(body.replace(/,/g, ''));
        });
        if (missing.length) throw new DeckError(`${file} does not have ${missing.join(', ')}: cite the file the figures are from`);
        const named = caption.includes(file) ? '' : ` (<code>${escHtml(file)}</code>)`;
        return `<span class="cited" data-file="${escHtml(file)}">${caption}</span>${named}`;
      }
      default: throw new DeckError(`unknown directive '${name}'`);
    }
  }

  // The lab's kernels: time, rate, % of peak, speed-up over the lab's first kernel.
  ladderTable(labDir, opts) {
    const lab = labEntry(this.results, labDir);
    const kernels = lab.kernels.filter((k) => k.time_ms != null && (!opts.only || opts.only.split(',').includes(k.name)));
    if (kernels.length === 0) throw new DeckError(`lab ${labDir} has no timed kernel in ${this.results.file}`);
    const matmul = kernels.some((k) => k.gflops != null);
    const base = kernels[0];
    // speedup=no: the lab's kernels do different jobs (lab 00), so a ratio of their times means nothing.
    const ladder = opts.speedup !== 'no';
    // The library's row (CUB, cuBLAS) last, and each kernel's share of its speed, where the run had one.
    const library = lab.library?.result?.correct && lab.library.result.time_ms != null ? lab.library : null;
    const lines = [`| kernel | size | time (ms) | ${matmul ? 'GFLOP/s' : 'GB/s'} | % of peak |${ladder ? ` vs ${base.name} |` : ''}${library ? ' % of library |' : ''}`, `|---|---|--:|--:|--:|${ladder ? '--:|' : ''}${library ? '--:|' : ''}`];
    const row = (label, name, t, path, first) => {
      const src = (f) => `data-src="${labDir}/${name}/${path}${f}"`;
      const speedup = !ladder ? '' : first ? ` ${numSpan(`data-ratio="${labDir}/${base.name}/time_ms:${labDir}/${name}/time_ms"`, base.time_ms / t.time_ms, 2)}x |` : ' |';
      const share = !library ? '' : name === '@library' ? ' 100% |' : t.pct_of_library != null ? ` ${numSpan(src('pct_of_library'), t.pct_of_library, 1)}% |` : ' - |';
      return `| ${label} | ${escHtml(t.size)} | ${numSpan(src('time_ms'), t.time_ms, 4)} | ${matmul ? numSpan(src('gflops'), t.gflops, 0) : numSpan(src('gbps'), t.gbps, 0)} | ${numSpan(src('pct_peak'), t.pct_peak, 1)} |${speedup}${share}`;
    };
    const rows = (label, name, k) => [row(label, name, k, '', true), ...(k.also_timed ?? []).map((t, i) => row('', name, t, `also_timed.${i}.`, false))];
    for (const k of kernels) lines.push(...rows(`\`${k.name}\``, k.name, k));
    if (library && !opts.only) lines.push(...rows(`**${escHtml(library.title)}** (library)`, '@library', library.result));
    return lines.join('\n') + `\n\n<p class="src">Source: ${escHtml(this.sourceOf([labDir])).replace(/`([^`]*)`/g, '<code>$1</code>')}. Kernel time: median of the checker's CUDA-event-timed runs.</p>`;
  }

  floatTripTable(labDir) {
    const lab = labEntry(this.results, labDir);
    const lines = ['| kernel | kernel (ms) | whole trip (ms) | CPU loop (ms) | kernel share of the trip |', '|---|--:|--:|--:|--:|'];
    for (const k of lab.kernels.filter((x) => x.time_ms != null)) {
      const src = (f) => `data-src="${labDir}/${k.name}/${f}"`;
      lines.push(`| \`${k.name}\` | ${numSpan(src('time_ms'), k.time_ms, 4)} | ${numSpan(src('e2e_ms'), k.e2e_ms, 2)} | ${numSpan(src('cpu_ms'), k.cpu_ms, 2)} | ${numSpan(`data-ratio="${labDir}/${k.name}/time_ms:${labDir}/${k.name}/e2e_ms" data-scale="100"`, (100 * k.time_ms) / k.e2e_ms, 1)}% |`);
    }
    return lines.join('\n') + `\n\n<p class="src">Source: ${escHtml(this.sourceOf([labDir])).replace(/`([^`]*)`/g, '<code>$1</code>')}.</p>`;
  }

  seedCostTable() {
    const s = this.seedModel();
    const lines = ['| N | T | naive (cycles per element) | tiled (cycles per element) | tiled / naive |', '|--:|--:|--:|--:|--:|'];
    for (const c of s.cases) {
      const key = `${c.n}:${c.tile}`;
      lines.push(`| ${c.n} | ${c.tile} | ${numSpan(`data-seed="naive:${key}"`, c.naive, 0)} | ${numSpan(`data-seed="tiled:${key}"`, c.tiled, 0)} | ${numSpan(`data-seed="percent:${key}"`, c.percent, 2)}% |`);
    }
    return lines.join('\n') + '\n\n<p class="src">Source: <code>seed_cycles_naive</code> and <code>seed_cycles_tiled</code> in checker/models/matmul.c, run by slides/seed_model.c at build time.</p>';
  }

  build(sectionsDir) {
    const read = (f) => {
      const p = path.join(sectionsDir, f);
      if (!fs.existsSync(p)) throw new DeckError(`missing section template ${path.relative(this.root, p)}`);
      return fs.readFileSync(p, 'utf8').trim();
    };
    const parts = [];
    const r = this.results.report;
    const frontMatter = (`---
marp: true
theme: gpulab
paginate: true
size: 16:9
footer: 'GPU lab kit${this.answersIn ? ' (student edition)' : ''} · numbers: ${r.device.name.replace(/'/g, '')}, ${r.date.slice(0, 10)}'
---`);
    const expandFile = (f, labDir) => this.expand(read(f), labDir, `slides/sections/${f}`);
    parts.push(expandFile('intro.md'));
    parts.push(expandFile('model.md'));
    for (const labDir of this.labDirs()) {
      // A lab's section lives with its solution (solutions/NN-name/slides.md): adding a lab
      // touches its own folders and its manifest, nothing here.
      const file = `solutions/${labDir}/slides.md`;
      if (!fs.existsSync(path.join(this.root, file)))
        throw new DeckError(`labs/${labDir} has no section in the deck: write ${file} (idea, diagram, key code, what changed, numbers, questions; see slides/README.md)`);
      const text = fs.readFileSync(path.join(this.root, file), 'utf8').trim();
      if (!new RegExp(`^# .*Lab ${labDir.slice(0, 2)}\\b`, 'm').test(text)) throw new DeckError(`${file} must open with a '# Lab ${labDir.slice(0, 2)} ...' heading`);
      if (r.labs.some((l) => l.lab === labDir)) {
        parts.push(this.expand(text, labDir, file));
        continue;
      }
      // A lab newer than the run the deck quotes: its section may quote nothing of the run until
      // a GPU run over every lab has it, and its first slide says that the numbers are missing.
      const quotes = /\{\{\s*(table|num|speedup|compare|size|float-trip)\b/.exec(text);
      if (quotes) labEntry(this.results, labDir); // the error that names the run to make
      const runFile = path.relative(this.root, path.resolve(this.root, this.results.file));
      const note = `\n\n<p class="src">No measured numbers for this lab here: ${escHtml(runFile)} has no run of it.</p>\n`;
      const expanded = this.expand(text, labDir, file);
      const firstBreak = expanded.indexOf('\n---\n');
      parts.push(firstBreak < 0 ? expanded + note : expanded.slice(0, firstBreak) + note + expanded.slice(firstBreak));
    }
    parts.push(expandFile('measured.md'));
    parts.push(expandFile('summary.md'));
    return frontMatter + '\n\n' + parts.join('\n\n---\n\n') + '\n';
  }
}

// Every lab as its manifest describes it (tools/labs json), the textbook baseline left out.
function manifestsOf(root) {
  try {
    return JSON.parse(execFileSync(path.join(root, 'tools/labs'), ['json'], { stdio: ['ignore', 'pipe', 'pipe'] }).toString())
      .filter((l) => !l.baseline);
  } catch (e) {
    throw new DeckError(`tools/labs could not read the labs' manifests:\n${e.stderr ?? e.message}`);
  }
}

// The lab folders (labs/NN-name), in order.
function labDirsOf(root) {
  return manifestsOf(root).map((l) => l.lab);
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const root = path.resolve(args.root);
  // The default: the newest H100 run over every lab (a run of a few labs, such as a profile of
  // two, is not the deck's source), else the newest H100 run at all.
  const labs = labDirsOf(root);
  // RESULTS=FILE: every number from that file. The default: each lab from the newest H100
  // run that has it (slides/README.md), so a lab measured again shows its new rungs.
  const perLab = args.results
    ? labs.map((d) => [d, path.resolve(root, args.results)])
    : newestPerLab(path.join(root, 'docs/results'), labs);
  if (!perLab.some(([, f]) => f)) newestH100Report(path.join(root, 'docs/results')); // the error naming the folder
  const results = mergeResults(perLab);
  const out = path.resolve(root, args.out);
  fs.mkdirSync(out, { recursive: true });
  // (the handout's module, loaded for the student edition only: the full deck needs nothing of it)
  let answersIn = null;
  if (args.student) {
    const handout = await import('../tools/handout/answers.mjs');
    const answers = handout.answerLines(root);
    answersIn = (text) => handout.answersIn(text, answers);
  }
  const kit = path.resolve(args.kit || root);
  const kitBuild = path.resolve(args.build || process.env.BUILD || path.join(kit, 'build'));
  const deck = new Deck(root, results, out, answersIn, kit, kitBuild);
  const markdown = deck.build(path.join(root, 'slides/sections'));
  fs.writeFileSync(path.join(out, 'deck.md'), markdown);
  fs.writeFileSync(path.join(out, 'results-used.txt'), results.report.labs.map((l) => `${l.lab} ${path.relative(root, results.sources[l.lab].file)}\n`).join(''));
  console.log(`slides: deck.md from ${results.files.map((f) => path.relative(root, f)).join(', ')} (${markdown.split(/\n---\n/).length - 1} slides)`); // the front matter's closing --- counts as the first break
}

main().catch((e) => {
  if (e instanceof DeckError) {
    console.error(`slides: error: ${e.message}`);
    process.exit(2);
  }
  throw e;
});
