#!/usr/bin/env node
// The lecture deck's tests (make test-slides): one line per check, then "N passed, N failed";
// the exit status is the number of failures.
//
//  1. `make slides` builds one self-contained index.html, with a section for every lab folder
//  2. in headless Chromium (Debian's, via the puppeteer-core that ships with marp-cli): no console
//     error, no failed request, no broken image; every slide screenshotted, none blank, none
//     overflowing its 1280x720 frame
//  3. every number in the deck equals the results JSON it was built from (parsed here, on its own)
//  4. the code listings are the marked lines of solutions/, and changing a marked line (in a
//     temporary copy of the tree) changes the deck's code and its traced diagram
//  5. a missing or malformed results file, or a lab without a section, is a clear error, no deck
//  6. RESULTS= another file: the numbers follow that file
//  7. the PDF renders
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inkedShare, launchChromium, watchProblems } from '../browser.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const build = path.resolve(root, process.env.BUILD || 'build');
const out = path.join(build, 'slides');
const screens = path.join(out, 'screens');

let passed = 0, failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed++; else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${!ok && detail ? `: ${detail}` : ''}`);
}
function attempt(name, fn) {
  try { fn(); } catch (e) { check(name, false, e.stack || String(e)); }
}
const make = (args, env = {}) => spawnSync('make', ['--no-print-directory', ...args], { cwd: root, env: { ...process.env, ...env }, encoding: 'utf8' });
// --kit, --build: the traced programs are built by this kit's Makefile, into its build folder (a
// tree's changed lab file into the tree's own output folder).
const generate = (args, cwd = root) => spawnSync('node', [path.join(cwd, 'slides/generate.mjs'), '--root', cwd, '--kit', root, '--build', build, ...args], { cwd, encoding: 'utf8' });

// ---- numbers: the deck's spans against the JSON, parsed independently of the generator ----
function spansOf(text) {
  const spans = [];
  const re = /<span class="num" ([^>]*)>([^<]*)<\/span>/g;
  for (let m; (m = re.exec(text)); ) {
    const attrs = Object.fromEntries([...m[1].matchAll(/([\w-]+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    spans.push({ attrs, shown: m[2] });
  }
  return spans;
}
function jsonValue(report, ref) { // "LAB/KERNEL/field.sub"
  const [lab, kernel, ...field] = ref.split('/');
  const entry = report.labs.find((l) => l.lab === lab);
  const k = kernel === '@library' ? entry?.library?.result : entry?.kernels.find((x) => x.name === kernel);
  return field.join('/').split('.').reduce((o, f) => (o == null ? undefined : o[f]), k);
}
function checkNumbers(deckText, report, seed, label) {
  const spans = spansOf(deckText);
  const bad = [];
  for (const { attrs, shown } of spans) {
    let expected;
    if (attrs['data-src']) expected = jsonValue(report, attrs['data-src']);
    else if (attrs['data-ratio']) {
      const [a, b] = attrs['data-ratio'].split(':').map((r) => jsonValue(report, r));
      expected = (Number(attrs['data-scale'] || 1) * a) / b;
    } else if (attrs['data-device']) expected = report.device[attrs['data-device']];
    else if (attrs['data-count'] === 'labs') expected = fs.readdirSync(path.join(root, 'labs')).filter((d) => /^\d\d-/.test(d)).length;
    else if (attrs['data-seed']) {
      const [key, n, t] = attrs['data-seed'].split(':');
      expected = n ? seed.cases.find((c) => c.n === Number(n) && c.tile === Number(t))?.[key] : seed[key];
    }
    const decimals = (shown.split('.')[1] || '').length;
    const value = Number(shown.replace(/,/g, ''));
    if (typeof expected !== 'number' || !Number.isFinite(value) || Math.abs(value - expected) > 0.5 * 10 ** -decimals + 1e-9 * Math.abs(expected))
      bad.push(`${JSON.stringify(attrs)} shows ${shown}, the source says ${expected}`);
  }
  check(`${label}: ${spans.length} numbers in the deck equal their source`, spans.length > 50 && bad.length === 0, bad.slice(0, 5).join('; ') || `only ${spans.length} numbers`);
  const quoted = new Set(spans.map((s) => s.attrs['data-src']).filter(Boolean).map((s) => s.split('/').slice(0, 2).join('/')));
  const missing = report.labs.flatMap((l) => l.kernels.filter((k) => k.time_ms != null).map((k) => `${l.lab}/${k.name}`)).filter((k) => !quoted.has(k));
  check(`${label}: every timed kernel of the JSON is quoted in the deck`, missing.length === 0, missing.join(', '));
  return spans;
}

// ---- 1. build ----
fs.rmSync(out, { recursive: true, force: true });
const built = make(['slides']);
const html = path.join(out, 'index.html');
check('make slides builds build/slides/index.html', built.status === 0 && fs.existsSync(html), built.stderr + built.stdout);
if (!fs.existsSync(html)) { console.log(`${passed} passed, ${failed + 1} failed`); process.exit(failed + 1); }
const deckMd = fs.readFileSync(path.join(out, 'deck.md'), 'utf8');
const deckHtml = fs.readFileSync(html, 'utf8');
// Every diagram of a kernel is the emulator's trace of a solution kernel, and says which run.
attempt('the diagrams name the traced run', () => {
  const traced = ['index-2d', 'naive-warp', 'tile-load', 'reduce-steps:neighbored', 'reduce-steps:interleaved', 'warp-activity', 'coalescing', 'fold', 'last-warp', 'shuffle', 'recursive'];
  const bad = traced.filter((id) => {
    const src = new RegExp(`<img alt="${id}"[^]*?<span class="src">Source: ([^<]*)`).exec(deckMd)?.[1] ?? '';
    return !/^the emulator's trace of \w[\w<>&;]* \(lab \d\d, variant \w+, [^)]+\)/.test(src) || !/solutions\/\d\d-[\w-]+\/\w+\.cu:\d+-\d+/.test(src);
  });
  check(`the ${traced.length} diagrams each name the kernel and the emulated run they are traced from, and the lines drawn`, bad.length === 0, bad.join(', '));
});
// results-used.txt: "LAB FILE" per lab. The report the numbers are held to is rebuilt here from
// those files, each lab's entry from its own file, all of one device.
const used = fs.readFileSync(path.join(out, 'results-used.txt'), 'utf8').trim().split('\n').map((l) => l.split(' '));
const usedFiles = [...new Set(used.map(([, f]) => path.join(root, f)))];
const parsed = new Map(usedFiles.map((f) => [f, JSON.parse(fs.readFileSync(f, 'utf8'))]));
const resultsUsed = path.join(root, used[0][1]);
const report = { ...parsed.get(resultsUsed), labs: used.map(([lab, f]) => parsed.get(path.join(root, f)).labs.find((l) => l.lab === lab)) };
check(`the deck's ${usedFiles.length} results files are of one device`, [...parsed.values()].every((r) => JSON.stringify(r.device) === JSON.stringify(report.device)));
// Each lab from the newest H100 run that timed all of it (as many of its kernels as any run did:
// a run of one kernel for a comparison is not the lab's numbers), none from a SUPERSEDED folder.
attempt('each lab from the newest H100 run of it', () => {
  const all = [];
  const walk = (d) => { if (fs.existsSync(path.join(d, 'SUPERSEDED'))) return; for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else if (p.endsWith('.json')) { try { const r = JSON.parse(fs.readFileSync(p, 'utf8')); if (r.schema === 'gpulab-report/1' && r.backend === 'gpu' && /H100/.test(r.device?.name)) all.push({ p, r }); } catch { /* other JSON */ } } } };
  walk(path.join(root, 'docs/results'));
  const timed = (r, lab) => r.labs.find((l) => l.lab === lab)?.kernels.filter((k) => k.time_ms != null).length ?? 0;
  const stale = used.filter(([lab, f]) => {
    const mine = all.find((x) => x.p === path.join(root, f));
    const most = Math.max(...all.map((x) => timed(x.r, lab)));
    return !mine || timed(mine.r, lab) < most || all.some((x) => x.r.date > mine.r.date && timed(x.r, lab) === most);
  });
  check(`each of ${used.length} labs is quoted from the newest H100 run of it`, stale.length === 0, stale.map((x) => x.join(' ')).join('; '));
  // and the rule is needed: a newer run of lab 04's one kernel exists, and is not quoted
  const partial = all.filter((x) => timed(x.r, '04-reduce-unrolling') === 1);
  check('a newer run of one lab-04 kernel is not the lab\'s numbers', partial.length > 0 &&
    !used.some(([lab, f]) => lab === '04-reduce-unrolling' && partial.some((x) => x.p === path.join(root, f))));
});
const seed = JSON.parse(execFileSync(path.join(out, 'seed_model'), ['4:2', '1024:16']).toString());

const external = [...deckHtml.matchAll(/\b(?:src|href)="(https?:[^"]*)"/g)].map((m) => m[1]);
check('index.html is self-contained (no external src/href)', external.length === 0, external.slice(0, 3).join(' '));
const labs = fs.readdirSync(path.join(root, 'labs')).filter((d) => /^\d\d-/.test(d));
const noSection = labs.filter((d) => !new RegExp(`<h1[^>]*>Lab ${d.slice(0, 2)}:`).test(deckHtml));
check(`every lab folder (${labs.length}) has its section`, noSection.length === 0, noSection.join(', '));
check('speaker notes are in the HTML', (deckHtml.match(/bespoke-marp-note/g) || []).length > 5);

// ---- 3. numbers ----
const spans = checkNumbers(deckMd, report, seed, path.relative(root, resultsUsed));
check('the HTML shows the same numbers as the Markdown', spansOf(deckHtml).length === spans.length, `${spansOf(deckHtml).length} vs ${spans.length}`);

// ---- 3b. no figure typed by hand ----
// The sections' prose (speaker notes, code, directives removed) holds no measured-looking figure
// (a number with x, %, a time, a rate or a size unit) and no count of the kit's things (labs,
// kernels, rungs...) in digits or words: those come from directives, and a figure quoted from a
// committed file goes through {{cite FILE | ...}}, which the build holds to that file.
const UNITS = String.raw`(?:x\b|×|%|\s?(?:ms|us|µs|ns|s|GB\/s|TB\/s|GFLOP\/s|TFLOP\/s|cycles?|B|KB|MB|GB|KiB|MiB|GiB)\b)`;
const COUNT_WORDS = 'two|three|four|five|six|seven|eight|nine|ten|eleven|twelve';
function typedFigures(markdown) {
  let t = markdown.replace(/<!--[\s\S]*?-->/g, '').replace(/```[\s\S]*?```/g, '').replace(/`[^`]*`/g, '');
  for (let before = null; before !== t; ) { before = t; t = t.replace(/\{\{[^{}]*\}\}/g, ''); } // innermost first
  const found = [];
  for (const line of t.split('\n')) {
    for (const m of line.matchAll(new RegExp(String.raw`(?<![\w^.])\d[\d,.]*${UNITS}`, 'g'))) found.push(m[0]);
    for (const m of line.matchAll(new RegExp(String.raw`\b(?:\d+|${COUNT_WORDS})\s+(?:labs?|kernels?|rungs?|slides?|variants?)\b`, 'gi'))) found.push(m[0]);
  }
  return found;
}
attempt('no figure typed by hand in the sections', () => {
  const typed = [];
  const sections = fs.readdirSync(path.join(root, 'slides/sections')).map((f) => `slides/sections/${f}`)
    .concat(fs.readdirSync(path.join(root, 'solutions')).map((d) => `solutions/${d}/slides.md`).filter((f) => fs.existsSync(path.join(root, f))));
  for (const f of sections) for (const x of typedFigures(fs.readFileSync(path.join(root, f), 'utf8'))) typed.push(`${f}: "${x}"`);
  check(`no figure typed by hand in the ${sections.length} sections, slides/sections and solutions/*/slides.md (use a directive or {{cite FILE | ...}})`, typed.length === 0 && sections.length > 4, typed.join('; '));
  // The scan must see what it is for (the issue's own cases) and pass what is not a figure.
  const caught = ['- Eight labs in `labs/`', 'a 60x miss', 'runs in 0.35 ms at 3 TB/s', 'counts 1.5x its DRAM bytes (608 MB)', 'the last two rungs beat CUB', 'all ten labs'].filter((x) => typedFigures(x).length > 0);
  const flagged = ['- {{count labs}} labs: {{labs}}', '{{cite docs/x.md | 1.5x}}', '<!-- 3.42x in the notes -->', '`2048 x 16`', 'blocks of 256 threads', '2^24 ints at 4096^3'].filter((x) => typedFigures(x).length > 0);
  check('the scan finds typed figures (6 cases) and passes directives, notes, code and sizes (6 cases)', caught.length === 6 && flagged.length === 0, `caught ${caught.length} of 6, flagged ${flagged.join(' | ')}`);
});
attempt('a cited figure must be in the file it cites', () => {
  const tmp = copyTree();
  try {
    fs.appendFileSync(path.join(tmp, 'slides/sections/measured.md'), '\n\n{{cite docs/results/h100-2026-11-24-top.md | big_tiles 9.87x cuBLAS}}\n');
    const r = generate(['--out', path.join(tmp, 'out')], tmp);
    check('{{cite FILE | a figure not in FILE}}: the build fails and names the figure', r.status !== 0 && /does not have 9\.87/.test(r.stderr), r.stderr.trim());
  } finally { fs.rmSync(tmp, { recursive: true, force: true }); }
});

// ---- 3c. the cost-model slide's formula is checker/model.c's ----
attempt('the formula on the cost-model slide', () => {
  const div = /<div class="formula" data-formula="seed">([\s\S]*?)<\/div>/.exec(deckMd)?.[1] ?? '';
  const plain = div.replace(/<span class="num"[^>]*>([^<]*)<\/span>/g, '$1').replace(/<[^>]+>/g, '').replace(/&nbsp;/g, ' ');
  const g = Number(/g = ([\d,]+)/.exec(plain)?.[1].replace(/,/g, '')), s = Number(/s = ([\d,]+)/.exec(plain)?.[1].replace(/,/g, ''));
  const js = (e) => e.replace(/⌈([^⌉]*)⌉/g, 'Math.ceil($1)').replace(/·/g, '*').replace(/(\d)([A-Za-z(])/g, '$1*$2');
  const naive = /naive\(N\) = (.*?)\s+\(/.exec(plain)?.[1], tiled = /tiled\(N, T\) = (.*?)\s+\(per/.exec(plain)?.[1];
  if (!naive || !tiled) { check('the cost-model slide shows naive(N) and tiled(N, T)', false, plain.slice(0, 200)); return; }
  const fNaive = new Function('N', 'g', 's', `return ${js(naive)};`), fTiled = new Function('N', 'T', 'g', 's', `return ${js(tiled)};`);
  const cases = JSON.parse(execFileSync(path.join(out, 'seed_model'), ['4:2', '1024:16', '1000:32', '17:5']).toString()).cases;
  const off = cases.filter((c) => fNaive(c.n, g, s) !== c.naive || fTiled(c.n, c.tile, g, s) !== c.tiled);
  check(`the slide's formula (g = ${g}, s = ${s}) gives checker/models/matmul.c's cycles in ${cases.length} cases`, off.length === 0 && g > 0 && s > 0, JSON.stringify(off));
});

// ---- 4. code excerpts ----
attempt('every code listing is the marked lines of solutions/', () => {
  const marked = [];
  for (const lab of fs.readdirSync(path.join(root, 'solutions'))) for (const f of fs.readdirSync(path.join(root, 'solutions', lab)).filter((x) => x.endsWith('.cu'))) {
    const lines = fs.readFileSync(path.join(root, 'solutions', lab, f), 'utf8').split('\n');
    let open = null;
    lines.forEach((l, i) => {
      const m = /^\s*\/\/ slide: (\S+)\s*$/.exec(l);
      if (!m) return;
      if (m[1] === 'end') { marked.push({ name: open.name, lines: lines.slice(open.at + 1, i) }); open = null; } else open = { name: m[1], at: i };
    });
  }
  const used = [...deckMd.matchAll(/marked <code>\/\/ slide: ([^<]+)<\/code>/g)].map((m) => m[1]);
  const wrong = used.filter((name) => {
    const e = marked.find((x) => x.name === name);
    return !e || !e.lines.every((l) => deckMd.includes(l.trim()));
  });
  check(`the deck's ${used.length} code listings are the marked lines`, used.length >= 10 && wrong.length === 0, wrong.join(', '));
});

// A copy of what the generator reads, for the tests that change inputs.
function copyTree() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'slides-test-'));
  for (const p of ['solutions', 'labs', 'checker', 'common', 'tasks', 'tools/labs', 'docs/results', 'slides/generate.mjs', 'slides/lib', 'slides/sections', 'slides/seed_model.c', 'slides/theme.css'])
    fs.cpSync(path.join(root, p), path.join(tmp, p), { recursive: true });
  return tmp;
}

attempt('changing a marked solution line changes the deck', () => {
  const tmp = copyTree();
  try {
    const file = path.join(tmp, 'solutions/03-reduce-divergence/reduce_divergence.cu');
    const before = 'if (tid % (2 * stride) == 0 && tid + stride < count)';
    const after = 'if (tid % (4 * stride) == 0 && tid + stride < count)';
    const src = fs.readFileSync(file, 'utf8');
    if (!src.includes(before)) throw new Error(`the test's line is no longer in ${file}: update the test`);
    fs.writeFileSync(file, src.replace(before, after));
    const r = generate(['--out', path.join(tmp, 'out')], tmp);
    const changed = r.status === 0 ? fs.readFileSync(path.join(tmp, 'out/deck.md'), 'utf8') : '';
    const figure = (md) => /<img alt="reduce-steps:neighbored" src="([^"]*)"/.exec(md)?.[1];
    const count = (text, s) => text.split(s).length - 1;
    check('an edited marked line appears in the deck', changed.includes(after) && count(changed, before) === count(deckMd, before) - 1, r.stderr);
    check('the diagram traced from that line changes with it', figure(changed) && figure(changed) !== figure(deckMd));
    // The changed kernel itself ran: its trace (the checker's JSON, in the tree's output) has the
    // new step 1, threads 0, 4, 8, 12 adding (the kit's solution: 0, 2, 4, ...), and the figure
    // names the emulator's run as its source.
    const traced = JSON.parse(fs.readFileSync(path.join(tmp, 'out/traces/neighbored-16.json'), 'utf8'));
    const firstStores = traced.records.find((x) => x.kind === 'store' && x.array === 'data')?.lanes.map(([lane]) => lane).join(',');
    const source = /<img alt="reduce-steps:neighbored"[^]*?<span class="src">Source: ([^<]*)/.exec(changed)?.[1] ?? '';
    check('the changed solution is what the emulator ran: its first step adds with threads 0, 4, 8, 12, and the figure names that run', firstStores === '0,4,8,12' && /emulator's trace of reduce_neighbored \(lab 03, variant neighbored, n=16 block=16\)/.test(source), `${firstStores} | ${source}`);
  } finally { fs.rmSync(tmp, { recursive: true, force: true }); }
});

// ---- 5. errors ----
attempt('bad results files are clear errors', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'slides-bad-'));
  try {
    const cases = [
      ['missing', path.join(tmp, 'no-such-run.json'), /does not exist/],
      ['malformed', path.join(tmp, 'truncated.json'), /not valid JSON/, '{"schema": "gpulab-report/1", "labs": ['],
      ['wrong schema', path.join(tmp, 'other.json'), /schema/, '{"schema": "something-else"}'],
      ['no labs', path.join(tmp, 'empty.json'), /no "labs"/, JSON.stringify({ ...report, labs: [] })],
    ];
    for (const [what, file, message, content] of cases) {
      if (content != null) fs.writeFileSync(file, content);
      const o = path.join(tmp, `out-${what.replace(/ /g, '-')}`);
      const r = generate(['--results', file, '--out', o]);
      check(`${what} results file: exit ${r.status}, message names the file, no deck`, r.status !== 0 && message.test(r.stderr) && r.stderr.includes(file) && !fs.existsSync(path.join(o, 'deck.md')), r.stderr.trim());
    }
    const viaMake = make(['slides', `RESULTS=${path.join(tmp, 'no-such-run.json')}`, `BUILD=${path.join(tmp, 'build')}`]);
    check('make slides RESULTS=<missing file> fails with the reason', viaMake.status !== 0 && /does not exist/.test(viaMake.stderr) && !fs.existsSync(path.join(tmp, 'build/slides/index.html')), viaMake.stderr.trim());
  } finally { fs.rmSync(tmp, { recursive: true, force: true }); }
});

attempt('a lab folder without a section is a build error', () => {
  const tmp = copyTree();
  try {
    fs.mkdirSync(path.join(tmp, 'labs/10-new-lab'));
    fs.writeFileSync(path.join(tmp, 'labs/10-new-lab/new.cu'), '');
    fs.writeFileSync(path.join(tmp, 'labs/10-new-lab/lab.manifest'), 'title A new lab\nfile new.cu\ntask matmul\nvariant first 10 model=none\n');
    const r = generate(['--out', path.join(tmp, 'out')], tmp);
    check('a new lab without a section: the build fails and names the file to write', r.status !== 0 && r.stderr.includes('solutions/10-new-lab/slides.md'), r.stderr.trim());
  } finally { fs.rmSync(tmp, { recursive: true, force: true }); }
});

// ---- 6. another results file ----
attempt('RESULTS= another run', () => {
  // Another run of every lab and kernel: the deck's own numbers with every time doubled and
  // every rate halved, in one file; the deck built from it must show those numbers.
  const tmpBuild = fs.mkdtempSync(path.join(os.tmpdir(), 'slides-other-'));
  try {
    const other = path.join(tmpBuild, 'other-run.json');
    const scaled = (k) => k && { ...k, time_ms: k.time_ms != null ? 2 * k.time_ms : k.time_ms, gbps: k.gbps != null ? k.gbps / 2 : k.gbps, gflops: k.gflops != null ? k.gflops / 2 : k.gflops, pct_peak: k.pct_peak != null ? k.pct_peak / 2 : k.pct_peak, also_timed: (k.also_timed ?? []).map((t) => ({ ...t, time_ms: 2 * t.time_ms })) };
    const otherReport = { ...report, date: '2000-01-01T00:00:00Z', labs: report.labs.map((l) => ({ ...l, kernels: l.kernels.map(scaled), library: l.library && { ...l.library, result: scaled(l.library.result) } })) };
    fs.writeFileSync(other, JSON.stringify(otherReport));
    const r = generate(['--results', other, '--out', tmpBuild]);
    const md = r.status === 0 ? fs.readFileSync(path.join(tmpBuild, 'deck.md'), 'utf8') : '';
    check('RESULTS=another-run.json builds, from that file alone', r.status === 0 && fs.readFileSync(path.join(tmpBuild, 'results-used.txt'), 'utf8').trim().split('\n').every((l) => l.endsWith('other-run.json')), r.stderr);
    if (md) {
      checkNumbers(md, otherReport, seed, 'RESULTS=another-run.json');
      const t = report.labs.find((l) => l.lab === '03-reduce-divergence').kernels[0].time_ms;
      check('its numbers are not the default run\'s', md.includes(`data-src="03-reduce-divergence/neighbored/time_ms" data-digits="4">${(2 * t).toFixed(4)}`));
    }
  } finally { fs.rmSync(tmpBuild, { recursive: true, force: true }); }
});

// ---- 2. the browser ----
async function browserChecks() {
  const browser = await launchChromium(root);
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 720 });
    const problems = watchProblems(page);
    await page.goto(`file://${html}`, { waitUntil: 'load' });
    await page.evaluate(() => document.fonts.ready);
    // Marp's on-screen controls pop up over the slide; they are not part of the deck's content.
    await page.addStyleTag({ content: '.bespoke-marp-osc { display: none !important; }' });
    const images = await page.evaluate(() => [...document.images].map((i) => ({ alt: i.alt, ok: i.complete && i.naturalWidth > 0 })));
    const broken = images.filter((i) => !i.ok).map((i) => i.alt);
    check(`${images.length} images all load`, images.length >= 10 && broken.length === 0, broken.join(', '));

    const count = await page.evaluate(() => document.querySelectorAll('svg[data-marpit-svg]').length);
    const mdSlides = deckMd.split(/\n---\n/).length - 1;
    check(`the HTML has the Markdown's ${mdSlides} slides`, count === mdSlides, `${count} in the HTML`);
    fs.rmSync(screens, { recursive: true, force: true });
    fs.mkdirSync(screens, { recursive: true });

    const blank = [], overflow = [];
    for (let i = 1; i <= count; i++) {
      await page.evaluate((n) => { location.hash = `#${n}`; }, i);
      await page.waitForFunction((n) => document.querySelectorAll('svg[data-marpit-svg]')[n - 1].classList.contains('bespoke-marp-active'), {}, i);
      const over = await page.evaluate((n) => {
        const section = document.querySelectorAll('svg[data-marpit-svg]')[n - 1].querySelector('section');
        const frame = section.getBoundingClientRect();
        const scale = frame.width / 1280;
        const out = [];
        for (const el of section.querySelectorAll('*')) {
          if (el.closest('footer, header')) continue;
          const r = el.getBoundingClientRect();
          if (r.width === 0 || r.height === 0) continue;
          const below = (r.bottom - frame.bottom) / scale, right = (r.right - frame.right) / scale;
          if (below > 1 || right > 1) out.push(`<${el.tagName.toLowerCase()}> ${Math.round(Math.max(below, right))}px past the edge`);
        }
        for (const pre of section.querySelectorAll('pre')) if (pre.scrollWidth > pre.clientWidth + 1) out.push(`<pre> lines cut by ${pre.scrollWidth - pre.clientWidth}px`);
        if (section.scrollHeight > section.clientHeight + 1) out.push(`content ${section.scrollHeight - section.clientHeight}px taller than the slide`);
        return out;
      }, i);
      if (over.length) overflow.push(`slide ${i}: ${over[0]}`);
      const png = await page.screenshot({ encoding: 'base64' });
      fs.writeFileSync(path.join(screens, `${String(i).padStart(2, '0')}.png`), Buffer.from(png, 'base64'));
      const inked = await inkedShare(page, png);
      if (inked < 0.01) blank.push(`slide ${i} (${(100 * inked).toFixed(2)}% inked)`);
    }
    check(`${count} slides screenshotted to ${path.relative(root, screens)}/, none blank`, blank.length === 0, blank.join(', '));
    check('no slide overflows its frame', overflow.length === 0, overflow.join('; '));
    check('no console error, page error or failed request', problems.length === 0, problems.slice(0, 5).join('; '));
    // Labels: in every chart and diagram, no two pieces of text overlap. Each SVG is opened on
    // its own and every <text>'s box is taken through its transform (rotated tick labels are
    // rotated boxes), then tested pairwise by separating axes, less a pixel of slack.
    const svgs = await page.evaluate(() => [...document.images].filter((i) => i.src.startsWith('data:image/svg+xml;base64,')).map((i) => ({ alt: i.alt, b64: i.src.split(',')[1] })));
    const overlapping = [];
    const seenSvg = new Set();
    for (const { alt, b64 } of svgs) {
      if (seenSvg.has(b64)) continue;
      seenSvg.add(b64);
      await page.setContent(`<!DOCTYPE html><html><body style="margin:0">${Buffer.from(b64, 'base64').toString('utf8').replace(/<\?xml[^>]*>/, '').replace(/<!DOCTYPE[^>]*>/, '')}</body></html>`);
      await page.evaluate(() => document.fonts.ready);
      const clashes = await page.evaluate(() => {
        const boxes = [];
        for (const t of document.querySelectorAll('svg text')) {
          const s = t.textContent.trim();
          if (!s) continue;
          const b = t.getBBox();
          if (b.width === 0 || b.height === 0) continue;
          const m = t.getScreenCTM();
          const slack = 1;
          const corners = [[b.x + slack, b.y + slack], [b.x + b.width - slack, b.y + slack], [b.x + b.width - slack, b.y + b.height - slack], [b.x + slack, b.y + b.height - slack]]
            .map(([x, y]) => [m.a * x + m.c * y + m.e, m.b * x + m.d * y + m.f]);
          boxes.push({ s, corners });
        }
        const axes = (c) => [0, 1].map((i) => { const dx = c[i + 1][0] - c[i][0], dy = c[i + 1][1] - c[i][1]; return [-dy, dx]; });
        const project = (c, [ax, ay]) => { const v = c.map(([x, y]) => x * ax + y * ay); return [Math.min(...v), Math.max(...v)]; };
        const meet = (p, q) => [...axes(p), ...axes(q)].every((a) => { const [p0, p1] = project(p, a), [q0, q1] = project(q, a); return p1 > q0 && q1 > p0; });
        const out = [];
        for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++)
          if (meet(boxes[i].corners, boxes[j].corners)) out.push(`"${boxes[i].s}" and "${boxes[j].s}"`);
        return { out, n: boxes.length };
      });
      if (clashes.out.length) overlapping.push(`${alt}: ${clashes.out.slice(0, 3).join(', ')}${clashes.out.length > 3 ? ` (${clashes.out.length} in all)` : ''}`);
    }
    check(`no two labels overlap in the deck's ${seenSvg.size} charts and diagrams (boxes measured in Chromium)`, seenSvg.size >= 10 && overlapping.length === 0, overlapping.join('; '));

  } finally {
    await browser.close();
  }
}

try { await browserChecks(); } catch (e) { check('the deck opens in headless Chromium', false, e.stack || String(e)); }

// ---- 7. PDF ----
attempt('make slides-pdf', () => {
  const r = make(['slides-pdf']);
  const pdf = path.join(out, 'deck.pdf');
  const head = fs.existsSync(pdf) ? fs.readFileSync(pdf).subarray(0, 5).toString() : '';
  check('make slides-pdf renders build/slides/deck.pdf through Chromium', r.status === 0 && head === '%PDF-' && fs.statSync(pdf).size > 100000, r.stderr + r.stdout);
});

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed);
