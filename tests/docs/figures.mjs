#!/usr/bin/env node
// make test-figures: every measured figure in the READMEs is backed by a committed run.
//
// A measured figure is a number with a rate (GB/s, TB/s, GFLOP/s, TFLOP/s, accesses/s), a time
// (ns, us, µs, ms, s, seconds, minutes) or a speed-up (1.05x). Each paragraph (a table is one)
// that has one must name a file or folder under docs/results/ that git tracks, and every such
// number must appear in what it names (a summary NAME.md also covers its folder NAME/). Figures
// between <!-- ladder:begin --> and <!-- ladder:end --> are generated (make readme-ladder) and
// exempt; so are code blocks. Sizes, percentages and the model's cycles are arithmetic, not
// measurements, and are not checked here.
//
// node tests/docs/figures.mjs [FILE.md ...]   (default: README.md, labs/*/README.md, emu/README.md, grader/README.md)
// Prints one line per unbacked paragraph and "N paragraphs with figures, N unbacked"; exits 1
// when any is unbacked.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FIGURE = /(?<![\w.^/-])(\d+(?:,\d{3})*(?:\.\d+)?)(?:\s?(?:GB\/s|TB\/s|GFLOP\/s|TFLOP\/s|accesses\/s|ns|us|µs|ms|s|seconds|minutes|min)\b|x(?![\w]))/g;
const tracked = new Set(execFileSync('git', ['ls-files', 'docs/results'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean));

export function figuresOf(paragraph) {
  const prose = paragraph.replace(/`[^`]*`/g, ' ').replace(/https?:\/\/\S+/g, ' ');
  return [...prose.matchAll(FIGURE)].map((m) => ({ text: m[0].replace(/\s+/g, " "), number: m[1] }));
}

// The committed files a paragraph names (docs/results/X, ../../docs/results/X, results/X).
export function namedFiles(paragraph) {
  const names = [...paragraph.matchAll(/(?:docs\/)?results\/([\w.\-/]+[\w])/g)].map((m) => `docs/results/${m[1]}`);
  const files = new Set();
  for (const n of names) {
    for (const t of tracked) {
      const stem = n.replace(/\.md$/, '');
      if (t === n || t.startsWith(`${n}/`) || (n.endsWith('.md') && t.startsWith(`${stem}/`))) files.add(t);
    }
  }
  return [...files];
}

function textOf(file) {
  try { return fs.readFileSync(path.join(root, file), 'utf8').replace(/,(?=\d{3})/g, ''); } catch { return ''; }
}

export function check(file, text) {
  const body = text.replace(/<!-- ladder:begin -->[\s\S]*?<!-- ladder:end -->/g, '').replace(/^```[\s\S]*?^```/gm, '');
  const out = [];
  let count = 0;
  for (const para of body.split(/\n\s*\n/)) {
    const figures = figuresOf(para);
    if (!figures.length) continue;
    count++;
    const files = namedFiles(para);
    const where = para.trim().split('\n')[0].slice(0, 70);
    if (!files.length) { out.push(`${file}: "${where}": ${figures.slice(0, 3).map((f) => f.text).join(', ')} with no committed file under docs/results/ named`); continue; }
    const corpus = files.map(textOf).join('\n');
    const missing = figures.filter((f) => !new RegExp(`(?<![\\d.])${f.number.replace(/,/g, '').replace('.', '\\.')}(?!\\d)`).test(corpus));
    if (missing.length) out.push(`${file}: "${where}": ${missing.slice(0, 3).map((f) => f.text).join(', ')} not in ${files.length > 3 ? `${files.slice(0, 3).join(', ')}...` : files.join(', ')}`);
  }
  return { count, unbacked: out };
}

// tests/docs/figures-pending.txt: paragraphs unbacked when this test came (figures of runs
// before docs/results/ existed, arithmetic written with a unit), one "FILE: opening words" a
// line. Only this list may fail quietly, and it only shrinks: a listed paragraph that is backed
// now, or is gone, is a failure too (take its line out).
const PENDING = path.join(root, 'tests/docs/figures-pending.txt');
const keyOf = (line) => line.replace(/": .*$/, '"');

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const pending = new Set(fs.existsSync(PENDING) ? fs.readFileSync(PENDING, 'utf8').split('\n').filter((l) => l && !l.startsWith('#')) : []);
  const seen = new Set();
  const files = args.length ? args : ['README.md', 'emu/README.md', 'grader/README.md', ...fs.readdirSync(path.join(root, 'labs')).filter((d) => /^\d\d-/.test(d)).sort().map((d) => `labs/${d}/README.md`)];
  let count = 0, bad = 0;
  for (const f of files) {
    const p = path.resolve(root, f);
    if (!fs.existsSync(p)) { console.error(`figures: ${f} does not exist`); process.exit(2); }
    const r = check(path.relative(root, p), fs.readFileSync(p, 'utf8'));
    count += r.count;
    for (const line of r.unbacked) {
      if (!args.length && pending.has(keyOf(line))) { seen.add(keyOf(line)); continue; }
      bad++;
      console.log(`FAIL ${line}`);
    }
  }
  const stale = args.length ? [] : [...pending].filter((k) => !seen.has(k));
  for (const k of stale) console.log(`FAIL ${k}: listed in tests/docs/figures-pending.txt but backed now (or gone): take the line out`);
  console.log(`${count} paragraphs with figures, ${bad} unbacked, ${seen.size} pending (tests/docs/figures-pending.txt)`);
  process.exit(bad || stale.length ? 1 : 0);
}
