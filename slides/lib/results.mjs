// The results JSON (schema gpulab-report/1): found, read and checked before any slide is made,
// so a missing or broken file stops the build with a message instead of producing an empty deck.
import fs from 'node:fs';
import path from 'node:path';

export class DeckError extends Error {}

const SCHEMA = 'gpulab-report/1';

// Reads and validates one report; every problem is a DeckError naming the file.
export function loadResults(file) {
  if (!fs.existsSync(file)) throw new DeckError(`results file ${file} does not exist (RESULTS=... names a report written by 'make solutions JSON=FILE')`);
  let text;
  try { text = fs.readFileSync(file, 'utf8'); } catch (e) { throw new DeckError(`results file ${file} cannot be read: ${e.message}`); }
  let report;
  try { report = JSON.parse(text); } catch (e) { throw new DeckError(`results file ${file} is not valid JSON: ${e.message}`); }
  const bad = (what) => { throw new DeckError(`results file ${file}: ${what} (expected a "${SCHEMA}" report from 'make solutions JSON=FILE')`); };
  if (!report || typeof report !== 'object' || Array.isArray(report)) bad('the top level is not an object');
  if (report.schema !== SCHEMA) bad(`schema is ${JSON.stringify(report.schema)}`);
  if (typeof report.date !== 'string' || !report.date) bad('no "date"');
  const d = report.device;
  if (!d || typeof d.name !== 'string' || !(d.peak_gbps > 0) || !(d.peak_gflops > 0)) bad('no "device" with name, peak_gbps and peak_gflops');
  if (!Array.isArray(report.labs) || report.labs.length === 0) bad('no "labs"');
  for (const lab of report.labs) {
    if (typeof lab.lab !== 'string' || !Array.isArray(lab.kernels)) bad(`a lab entry without "lab" and "kernels"`);
    for (const k of lab.kernels) {
      if (typeof k.name !== 'string') bad(`lab ${lab.lab}: a kernel without "name"`);
      if (k.ran && k.time_ms != null && !(typeof k.time_ms === 'number' && k.time_ms > 0)) bad(`lab ${lab.lab} kernel ${k.name}: time_ms is ${k.time_ms}`);
    }
  }
  return { file, report };
}

// The default: the newest (by its "date") gpulab report of an H100 under docs/results/
// (with accept(report), the newest one it accepts; null when there is none).
export function newestH100Report(resultsDir, accept) {
  const found = h100Reports(resultsDir, accept);
  if (found.length === 0 && accept) return null;
  if (found.length === 0) throw new DeckError(`no H100 report (schema ${SCHEMA}) under ${resultsDir}: give one with RESULTS=file.json`);
  return found[0];
}

// Every such report, newest first.
export function h100Reports(resultsDir, accept) {
  const found = [];
  const walk = (dir) => {
    // A folder with a SUPERSEDED file (its one line says why) holds runs that a later one
    // corrects: never a default source.
    if (fs.existsSync(path.join(dir, 'SUPERSEDED'))) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith('.json')) {
        try {
          const r = JSON.parse(fs.readFileSync(p, 'utf8'));
          if (r.schema === SCHEMA && r.backend === 'gpu' && /H100/.test(r.device?.name ?? '') && (!accept || accept(r)))
            found.push({ p, date: r.date });
        } catch { /* not a report: other JSON may live there */ }
      }
    }
  };
  if (fs.existsSync(resultsDir)) walk(resultsDir);
  found.sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : a.p < b.p ? -1 : 1));
  return found.map((f) => f.p);
}

// The lab entry whose folder name is `labDir` (e.g. "03-reduce-divergence"), or a DeckError.
export function labEntry(results, labDir) {
  const lab = results.report.labs.find((l) => l.lab === labDir);
  if (!lab) throw new DeckError(`results file ${results.file} has no lab "${labDir}" (run 'make solutions JSON=FILE' over every lab)`);
  return lab;
}

// `name` "@library" is the lab's library row (CUB, cuBLAS), when the run had one.
export function kernelEntry(results, labDir, name) {
  const lab = labEntry(results, labDir);
  const k = name === '@library' ? lab.library?.result : lab.kernels.find((x) => x.name === name);
  if (!k) throw new DeckError(`results file ${results.file}: lab ${labDir} has no kernel "${name}"`);
  return k;
}

// What produced the file, as far as the file says: it records the tree and the seed and whether
// Nsight Compute counters are in it, not the command line itself.
export function commandOf(results) {
  const r = results.report;
  const profiled = r.labs.some((l) => l.kernels.some((k) => k.measured));
  const parts = [`make ${r.tree === 'solutions' ? 'solutions' : 'check'}`];
  if (r.seed != null && r.seed !== 1) parts.push(`SEED=${r.seed}`);
  if (profiled) parts.push('PROFILE=1');
  parts.push(`JSON=${path.basename(results.file)}`);
  return parts.join(' ');
}

// The default sources, one per lab: for each lab folder, the newest H100 report (outside
// SUPERSEDED folders) that has that lab. Labs measured again later (08 and 09 on 2026-11-24)
// come from the newer run; the rest from the newest run over them. Returns [[labDir, file]].
// A run of part of a lab (make solutions LAB=04 VARIANT=unrolling8, to compare one kernel) is
// not the lab's numbers: of the runs that timed as many of its kernels as any run did, the newest.
export function newestPerLab(resultsDir, labDirs) {
  return labDirs.map((d) => {
    const timed = (r) => r.labs.find((l) => l.lab === d)?.kernels.filter((k) => k.time_ms != null).length ?? 0;
    let most = 0;
    h100Reports(resultsDir, (r) => { most = Math.max(most, timed(r)); return false; });
    return [d, most ? newestH100Report(resultsDir, (r) => timed(r) === most) : null];
  });
}

// Several reports as one: each lab's entry from its own file (the first file that has it,
// in the order given), all of one device. The result's `sources` maps lab -> file.
export function mergeResults(perLab) {
  const loaded = new Map();
  const load = (f) => { if (!loaded.has(f)) loaded.set(f, loadResults(f)); return loaded.get(f); };
  const labs = [], sources = {};
  let first = null;
  for (const [labDir, file] of perLab) {
    if (!file) continue;
    const r = load(file);
    first ??= r;
    const d = r.report.device, d0 = first.report.device;
    if (d.name !== d0.name || d.peak_gbps !== d0.peak_gbps || d.peak_gflops !== d0.peak_gflops)
      throw new DeckError(`${file} was measured on ${d.name}, ${first.file} on ${d0.name}: one deck quotes one device`);
    const entry = r.report.labs.find((l) => l.lab === labDir);
    if (!entry) continue;
    labs.push(entry);
    sources[labDir] = r;
  }
  if (!first) throw new DeckError('no results file for any lab');
  const newest = [...loaded.values()].sort((a, b) => (a.report.date < b.report.date ? 1 : -1))[0];
  return { file: first.file, report: { ...newest.report, labs }, sources, files: [...loaded.keys()] };
}
