// The student handout's README.md: tools/handout/README.md with its directives filled in.
//   {{section TITLE}}     the text of README.md's section "## TITLE" (its heading left out), less
//                         what points to the kit's own files
//                         that the handout does not hold: a paragraph, list item or table row
//                         that names one (docs/, solutions/, ...) is left out, and so are the
//                         rows of labs not handed out. Examples that name another lab stay.
//
//   node tools/handout/readme.mjs KIT HANDOUT > HANDOUT/README.md
import fs from 'node:fs';
import path from 'node:path';

const [kit, out] = process.argv.slice(2).map((p) => path.resolve(p));
if (!kit || !out) {
  console.error('usage: readme.mjs KIT HANDOUT');
  process.exit(2);
}
const readme = fs.readFileSync(path.join(kit, 'README.md'), 'utf8');
const labs = fs.readdirSync(path.join(out, 'labs')).filter((d) => /^\d\d-/.test(d)).sort();

function section(title) {
  const lines = readme.split('\n');
  const start = lines.findIndex((l) => l === `## ${title}`);
  if (start < 0) throw new Error(`README.md has no section '## ${title}'`);
  const end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  return lines.slice(start + 1, end < 0 ? lines.length : end).join('\n').trim();
}

// The paths a text names (in backticks, a link or image, or bare: a/b), kept when the kit has
// them and the handout does not; labs/ paths are the examples' and never count.
function missing(text) {
  const names = text.match(/[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.*-]+)+\/?/g) ?? [];
  return names.filter((n) => !n.startsWith('labs/') && fs.existsSync(path.join(kit, n)) && !fs.existsSync(path.join(out, n)));
}

// Units: fenced code blocks whole, else paragraphs, split into list items and table rows.
function units(text) {
  const result = [];
  let fence = null;
  for (const block of text.split(/\n\s*\n/)) {
    if (fence !== null) { fence += '\n\n' + block; if (/^```\s*$/m.test(block)) { result.push({ text: fence, gap: true }); fence = null; } continue; }
    if (/^```/.test(block) && (block.match(/^```/gm) ?? []).length === 1) { fence = block; continue; }
    const lines = block.split('\n');
    if (lines.every((l) => /^\|/.test(l)) || /^([-*] |\d+\. )/.test(lines[0])) {
      let item = [];
      const flush = () => { if (item.length) result.push({ text: item.join('\n'), gap: false }); item = []; };
      for (const l of lines) { if (/^(\||[-*] |\d+\. )/.test(l)) flush(); item.push(l); }
      flush();
      result[result.length - 1].gap = true;
    } else {
      result.push({ text: block, gap: true });
    }
  }
  return result;
}

const labRow = /^\| `(\d\d-[^`]*)` \|/;
function keep(unit) {
  const row = labRow.exec(unit.text);
  if (row && !labs.includes(row[1])) return false;
  return missing(unit.text).length === 0;
}
const filtered = (text) => units(text).filter(keep).map((u) => u.text + (u.gap ? '\n\n' : '\n')).join('').trim();

let text = fs.readFileSync(path.join(kit, 'tools/handout/README.md'), 'utf8');
text = text.replace(/\{\{section ([^}]+)\}\}/g, (_, title) => filtered(section(title.trim())));
if (/\{\{|\}\}/.test(text)) throw new Error('tools/handout/README.md: a directive is left unfilled');
process.stdout.write(text.trim() + '\n');
