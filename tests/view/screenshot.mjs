#!/usr/bin/env node
// A PNG of a report page as a student sees it, in headless Chromium (docs/report/screenshots.sh):
//   node tests/view/screenshot.mjs PAGE.html OUT.png [--open KERNEL] [--height PX]
// --open KERNEL also unfolds that kernel's section (passing kernels are folded); --height cuts the
// picture at PX pixels of the page (default: the whole page, as it opens).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../browser.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const option = (name) => { const i = args.indexOf(name); return i >= 0 ? args.splice(i, 2)[1] : undefined; };
const open = option('--open'), height = Number(option('--height') || 0);
const [page, out] = args;
if (!page || !out || args.length !== 2 || (height && !(height > 0))) {
  console.error('usage: node tests/view/screenshot.mjs PAGE.html OUT.png [--open KERNEL] [--height PX]');
  process.exit(2);
}
if (!fs.existsSync(page)) {
  console.error(`screenshot.mjs: no page ${page} (make check VIEW=1 writes build/report/NN/index.html)`);
  process.exit(2);
}
const browser = await launchChromium(root);
try {
  const tab = await browser.newPage();
  await tab.setViewport({ width: 1000, height: 900 });
  await tab.goto(`file://${path.resolve(page)}`, { waitUntil: 'load' });
  if (open) {
    const found = await tab.evaluate((k) => {
      const d = document.querySelector(`section[data-kernel='${k}'] > details`);
      if (d) d.open = true;
      return !!d;
    }, open);
    if (!found) throw new Error(`${page}: no kernel ${open}`);
  }
  const full = await tab.evaluate(() => document.documentElement.scrollHeight);
  const shown = height ? Math.min(height, full) : full;
  await tab.screenshot({ path: out, clip: { x: 0, y: 0, width: 1000, height: shown }, captureBeyondViewport: true });
  console.log(`${out}: 1000 x ${shown} px of a ${full} px page`);
} catch (e) {
  console.error(`screenshot.mjs: ${e.message}`);
  process.exitCode = 1;
} finally {
  await browser.close();
}
