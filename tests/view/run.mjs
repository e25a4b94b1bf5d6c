#!/usr/bin/env node
// The HTML report's tests (make test-view, part of make test): one line per check, then
// "N passed, N failed"; the exit status is the number of failures.
//
// Each case is a lab folder made here from solutions/ (a copy, edited by one replacement), checked
// with `make check TREE=... LAB=NN VIEW=1` on the emulator; the checks read the numbers the
// pictures carry (data-* attributes, the same numbers they draw):
//  1. coalesced and strided access: the drawn sectors equal the emulator's counters; the coalesced
//     kernel's equal the model's and show 4 sectors a request, the strided one's 32
//  2. tiled matmul with the tile index swapped in shared memory: the bank picture shows an 8-way
//     (tile 16) and 32-way (tile 32) conflict, the drawn conflicts equal the emulator's counter
//  3. the neighbored reduction: half the lanes of every warp idle at step 1, ..., whole warps idle later
//  4. a race, an out-of-bounds access, an endless loop and a failed build each still give a report
//     that says so (tag, lines, warps)
//  5. in headless Chromium: no console error or failed request; every picture's screenshot is not blank
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inkedShare, launchChromium, watchProblems } from '../browser.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const build = path.resolve(root, process.env.BUILD || 'build');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'view-test-'));

let passed = 0, failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed++; else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${!ok && detail ? `: ${detail}` : ''}`);
}

// A lab folder from solutions/ with `from` replaced by `to` (the test fails loudly if the line moved).
function makeTree(name, lab, from, to) {
  const dir = path.join(tmp, name);
  fs.cpSync(path.join(root, 'solutions', lab), path.join(dir, lab), { recursive: true });
  if (from) {
    const file = path.join(dir, lab, fs.readdirSync(path.join(dir, lab)).find((f) => f.endsWith('.cu')));
    const src = fs.readFileSync(file, 'utf8');
    if (!src.includes(from)) throw new Error(`${name}: "${from}" is no longer in solutions/${lab}: update the test`);
    fs.writeFileSync(file, src.split(from).join(to));
  }
  return dir;
}

// make check TREE=dir LAB=NN VIEW=1 on the emulator; returns its output and the report's HTML (kept).
function viewCheck(name, lab, from, to, extra = []) {
  const tree = makeTree(name, lab, from, to);
  const report = path.join(build, 'report', lab.slice(0, 2), 'index.html');
  fs.rmSync(report, { force: true });
  const r = spawnSync('make', ['--no-print-directory', 'check', `TREE=${tree}`, `LAB=${lab.slice(0, 2)}`, 'VIEW=1', 'BACKEND=emu', ...extra],
    { cwd: root, encoding: 'utf8', env: { ...process.env, BUILD: build } });
  const out = r.stdout + r.stderr;
  const html = fs.existsSync(report) ? fs.readFileSync(report, 'utf8') : '';
  const kept = path.join(tmp, `${name}.html`);
  if (html) fs.writeFileSync(kept, html);
  return { status: r.status, out, html, file: kept, printed: out.includes(`report: ${path.relative(root, report)}`) || out.includes(`report: ${report}`) };
}

const attrs = (tag) => Object.fromEntries([...tag.matchAll(/([\w-]+)='([^']*)'/g)].map((m) => [m[1], m[2]]));
function section(html, kernel) {
  const start = html.indexOf(`<section class='kernel' id='k-${kernel}'`);
  return start < 0 ? '' : html.slice(start, html.indexOf('</section>', start));
}
const figures = (html, kind) => [...html.matchAll(/<figure class='pic[^']*'[^>]*>/g)].map((m) => attrs(m[0])).filter((a) => a['data-kind'] === kind);
function counter(html, name) { // {drawn, emu, model} of the totals table
  const m = new RegExp(`<tr data-counter='${name}'>(.*?)</tr>`).exec(html);
  if (!m) return {};
  const cell = (src) => { const c = new RegExp(`data-src='${src}'[^>]*>([^<]*)<`).exec(m[1]); return c ? Number(c[1]) : NaN; };
  return { drawn: cell('drawn'), emu: cell('emu'), model: cell('model') };
}
const kept = [];

try {
  // ---- 1. coalesced and strided ----
  const coal = viewCheck('coalesced', '00-thread-indexing');
  check('make check VIEW=1 writes build/report/00/index.html and prints its path', coal.html && coal.printed, coal.out.slice(-600));
  kept.push(coal.file);
  {
    const s = section(coal.html, 'sine');
    const load = figures(s, 'global').find((f) => f['data-op'] === 'load');
    const sec = counter(s, 'gld_sectors'), inst = counter(s, 'gld_inst');
    check('coalesced: a warp of the sine load touches 4 sectors', load && Number(load['data-rep-sectors']) === 4 && Number(load['data-rep-lanes']) === 32, JSON.stringify(load));
    check('coalesced: drawn load sectors = emulator counter = model', sec.drawn > 0 && sec.drawn === sec.emu && sec.drawn === sec.model && inst.drawn === inst.model, JSON.stringify({ sec, inst }));
    check('coalesced: the site total drawn equals the table', load && Number(load['data-sectors']) === sec.drawn, `${load && load['data-sectors']} vs ${sec.drawn}`);
  }
  const strided = viewCheck('strided', '00-thread-indexing', 'unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;', 'unsigned int i = threadIdx.x * gridDim.x + blockIdx.x;');
  kept.push(strided.file);
  {
    const s = section(strided.html, 'sine');
    const load = figures(s, 'global').find((f) => f['data-op'] === 'load');
    const sec = counter(s, 'gld_sectors'), spr = counter(s, 'sectors_per_request');
    check('strided: a warp of the sine load touches 32 sectors', load && Number(load['data-rep-sectors']) === 32, JSON.stringify(load));
    check('strided: drawn sectors = emulator counter, 8x the model', sec.drawn === sec.emu && sec.drawn === 8 * sec.model, JSON.stringify(sec));
    check('strided: sectors per request drawn = emulator\'s', spr.drawn === spr.emu && spr.drawn > 30, JSON.stringify(spr));
    check('strided: the caption says what to look at', /touch 32 sectors, 8\.0 times the 4 a coalesced access needs/.test(s));
  }

  // ---- 2. bank conflicts ----
  const good = viewCheck('tiled', '02-matmul-tiled');
  const worstOf = (html, kernel) => Math.max(...figures(section(html, kernel), 'shared').map((f) => Number(f['data-worst'])));
  check('tiled matmul: no bank conflict drawn', worstOf(good.html, 'tiled16') === 1 && worstOf(good.html, 'tiled32') === 1);
  // the read follows the layout, or the product is wrong: b_tile[i][tx] becomes b_tile[tx][i]
  const sw = (() => {
    const tree = makeTree('swapped-both', '02-matmul-tiled', 'b_tile[ty][tx] =', 'b_tile[tx][ty] =');
    const file = path.join(tree, '02-matmul-tiled', 'matmul_tiled.cu');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('b_tile[i][tx]', 'b_tile[tx][i]'));
    return tree;
  })();
  {
    const report = path.join(build, 'report', '02', 'index.html');
    const r = spawnSync('make', ['--no-print-directory', 'check', `TREE=${sw}`, 'LAB=02', 'VIEW=1', 'BACKEND=emu'], { cwd: root, encoding: 'utf8', env: { ...process.env, BUILD: build } });
    const html = fs.existsSync(report) ? fs.readFileSync(report, 'utf8') : '';
    fs.writeFileSync(path.join(tmp, 'swapped.html'), html);
    kept.push(path.join(tmp, 'swapped.html'));
    check('swapped tile index: the kernels still pass', r.status === 0, (r.stdout + r.stderr).slice(-500));
    const w16 = worstOf(html, 'tiled16'), w32 = worstOf(html, 'tiled32');
    check('swapped tile index: the bank picture shows 8-way (tile 16) and 32-way (tile 32) conflicts', w16 === 8 && w32 === 32, `${w16}, ${w32}`);
    const c = counter(section(html, 'tiled32'), 'shared_bank_conflicts');
    check('swapped tile index: drawn conflicts = emulator counter', c.drawn > 0 && c.drawn === c.emu, JSON.stringify(c));
    check('swapped tile index: the caption names the conflict', /a 32-way bank conflict/.test(section(html, 'tiled32')));
  }

  // ---- 3. the neighbored reduction ----
  const red = viewCheck('reduce', '03-reduce-divergence');
  kept.push(red.file);
  {
    const rows = [...section(red.html, 'neighbored').matchAll(/<g class='row'[^>]*>/g)].map((m) => attrs(m[0]));
    const step = (k) => rows.filter((r) => r['data-step'] === String(k) && r['data-order'] === '0')[0];
    const masks = (k) => step(k)?.['data-masks'];
    check('neighbored: step 1, half the lanes of every warp idle (0x55555555)', masks(1) === '55555555,55555555,55555555,55555555' && step(1)['data-active'] === '64', masks(1));
    check('neighbored: step 2, a quarter of the lanes work (0x11111111)', masks(2) === '11111111,11111111,11111111,11111111', masks(2));
    check('neighbored: step 6, lane 0 of warps 0 and 2 only; warps 1 and 3 issue nothing', masks(6) === '00000001,-00000000,00000001,-00000000', masks(6));
    const inter = [...section(red.html, 'interleaved').matchAll(/<g class='row'[^>]*>/g)].map((m) => attrs(m[0]));
    const i1 = inter.find((r) => r['data-step'] === '1');
    const i2 = inter.find((r) => r['data-step'] === '2');
    check('interleaved: whole warps retire (step 1: warps 0-1 full, 2-3 nothing; step 2: warp 0 only)',
      i1?.['data-masks'] === 'ffffffff,ffffffff,-00000000,-00000000' && i2?.['data-masks'] === 'ffffffff,-00000000,-00000000,-00000000', `${i1?.['data-masks']} / ${i2?.['data-masks']}`);
  }

  // ---- 4. failures still give a report ----
  const race = viewCheck('race', '03-reduce-divergence', '            block_data[tid] += block_data[tid + stride];\n        __syncthreads(); /* every add of this step lands before the next step reads */', '            block_data[tid] += block_data[tid + stride];');
  kept.push(race.file);
  {
    const s = section(race.html, 'neighbored');
    const d = figures(s, 'diag')[0];
    check('race: the report names [race] with both lines and marks their pictures', /data-tag='\[race\]'/.test(s) && d && /reduce_divergence\.cu:\d+/.test(d['data-line']) && /reduce_divergence\.cu:\d+/.test(d['data-line2']) && /class='pic hot'/.test(s), JSON.stringify(d));
    check('race: the two warps are named', /warp 1, lane \d+ and thread \(\d+,0,0\), warp 0/.test(s) || /warp 0, lane \d+ and thread \(\d+,0,0\), warp 1/.test(s));
  }
  const oob = viewCheck('oob', '00-thread-indexing', 'if (i < n) /* the last block may have more threads than elements left */\n', '');
  kept.push(oob.file);
  check('out-of-bounds: the report shows [out-of-bounds] with its line and address', /data-tag='\[out-of-bounds\]'/.test(section(oob.html, 'sine')) && /address 0x[0-9a-f]+ \(sector/.test(section(oob.html, 'sine')), oob.out.slice(-400));
  const loop = viewCheck('endless', '00-thread-indexing', 'if (i < n) /* the last block may have more threads than elements left */', 'while (i < n)', ['TIMEOUT=2']);
  check('endless loop: the report says the kernel ran past its time limit', loop.html && /endless-loop/.test(section(loop.html, 'sine')), loop.out.slice(-400));
  const broken = viewCheck('nobuild', '03-reduce-divergence', 'unsigned int tid = threadIdx.x;', 'unsigned int tid = threadIdx.x');
  check('failed build: make fails, the report says so with the compiler\'s words', broken.status !== 0 && /data-what='build-failed'/.test(broken.html) && /error:/.test(broken.html), broken.out.slice(-400));

  // ---- 5. self-contained, and in the browser ----
  const all = kept.map((f) => fs.readFileSync(f, 'utf8'));
  check('the reports are self-contained (no script, no external src/href)', all.every((h) => !/<script|\b(?:src|href)=['"]https?:/.test(h)));
  const browser = await launchChromium(root);
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1150, height: 900 });
    const problems = watchProblems(page);
    let pictures = 0;
    const blank = [];
    for (const file of kept) {
      await page.goto(`file://${file}`, { waitUntil: 'load' });
      const figs = await page.$$('figure.pic');
      for (let i = 0; i < figs.length; i++) {
        const png = await figs[i].screenshot({ encoding: 'base64' });
        pictures++;
        const inked = await inkedShare(page, png);
        if (inked < 0.02) blank.push(`${path.basename(file)} picture ${i} (${(100 * inked).toFixed(2)}% inked)`);
      }
    }
    check(`${pictures} pictures in ${kept.length} reports screenshotted in Chromium, none blank`, pictures > 20 && blank.length === 0, blank.slice(0, 5).join(', '));
    check('no console error, page error or failed request', problems.length === 0, problems.slice(0, 5).join('; '));
  } finally {
    await browser.close();
  }
} catch (e) {
  check('the test ran to its end', false, e.stack || String(e));
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed);
