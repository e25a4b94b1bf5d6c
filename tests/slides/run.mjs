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
const generate = (args, cwd = root) => spawnSync('node', [path.join(cwd, 'slides/generate.mjs'), '--root', cwd, ...args], { cwd, encoding: 'utf8' });

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
const resultsUsed = path.join(root, fs.readFileSync(path.join(out, 'results-used.txt'), 'utf8').trim());
const report = JSON.parse(fs.readFileSync(resultsUsed, 'utf8'));
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
  for (const p of ['solutions', 'labs', 'checker', 'common', 'docs/results', 'slides/generate.mjs', 'slides/lib', 'slides/sections', 'slides/trace', 'slides/theme.css'])
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
    const r = generate(['--results', resultsUsed, '--out', path.join(tmp, 'out')], tmp);
    const changed = r.status === 0 ? fs.readFileSync(path.join(tmp, 'out/deck.md'), 'utf8') : '';
    const figure = (md) => /<img alt="reduce-steps:neighbored" src="([^"]*)"/.exec(md)?.[1];
    const count = (text, s) => text.split(s).length - 1;
    check('an edited marked line appears in the deck', changed.includes(after) && count(changed, before) === count(deckMd, before) - 1, r.stderr);
    check('the diagram traced from that line changes with it', figure(changed) && figure(changed) !== figure(deckMd));
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
    const r = generate(['--results', resultsUsed, '--out', path.join(tmp, 'out')], tmp);
    check('a new lab without a section: the build fails and names the template to write', r.status !== 0 && r.stderr.includes('slides/sections/10-new-lab.md'), r.stderr.trim());
  } finally { fs.rmSync(tmp, { recursive: true, force: true }); }
});

// ---- 6. another results file ----
attempt('RESULTS= another run', () => {
  // Another report of a run over every lab (a profile of a few labs is not a deck's source).
  const labs = fs.readdirSync(path.join(root, 'labs')).filter((d) => /^\d\d-/.test(d));
  const everyLab = (f) => {
    try { return labs.every((d) => JSON.parse(fs.readFileSync(f, 'utf8')).labs.some((l) => l.lab === d)); } catch { return false; }
  };
  const other = fs.readdirSync(path.dirname(resultsUsed)).map((f) => path.join(path.dirname(resultsUsed), f)).find((f) => f.endsWith('.json') && f !== resultsUsed && everyLab(f));
  if (!other) { check('RESULTS= another run (no second report next to the default)', true); return; }
  const tmpBuild = fs.mkdtempSync(path.join(os.tmpdir(), 'slides-other-'));
  try {
    const r = generate(['--results', other, '--out', tmpBuild]);
    const md = r.status === 0 ? fs.readFileSync(path.join(tmpBuild, 'deck.md'), 'utf8') : '';
    check(`RESULTS=${path.relative(root, other)} builds`, r.status === 0, r.stderr);
    if (md) checkNumbers(md, JSON.parse(fs.readFileSync(other, 'utf8')), seed, path.relative(root, other));
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
