// The labs' answers, and a search for them: what the students' handout (make handout) must not hold.
//
// A lab's answer lines are the lines of its solution, solutions/NN-name/FILE.cu, that its
// skeleton, labs/NN-name/FILE.cu, does not have: what a student writes. Blank lines, `// slide:`
// markers and lines too generic to give anything away (meaningful() below: a lone brace,
// `__syncthreads();`, `for (int i = 0; i < k; i++)`) are left out. Lines are compared without
// their spaces, so `int i=2*s*t;` is `int i = 2 * s * t;`.
//
// The search reads every file of a folder as text, and also as a reader of HTML, SVG or Markdown
// sees it: tags removed and entities decoded (a deck's listing is split into highlighting spans),
// and every data: URI decoded and read the same way (the deck's diagrams are SVG images inlined
// in base64). An answer line counts as found wherever its text appears, inside a longer line too.
//
//   node tools/handout/answers.mjs [--root KIT] list              every answer line: LAB<TAB>line
//   node tools/handout/answers.mjs [--root KIT] search DIR        the answer lines found under DIR
//       (exit 1 if any). A line that a file under DIR/labs holds (a skeleton, a lab's README) is
//       the course's own gift to the student (a later lab's skeleton starts from an earlier lab's
//       answer; a README shows a step's code): listed as given, with the file, not as found.
import fs from 'node:fs';
import path from 'node:path';

const MARKER = /^\s*\/\/ slide:/;
export const squeeze = (s) => s.replace(/\s+/g, '');

// A line gives something away when it has at least three names or numbers, one of them a name
// of two letters or more that is not a word of C itself: `sum += data[i];` does,
// `for (int i = 0; i < k; i++)` and `return 0;` do not.
const C_WORDS = new Set(('for if else while do return break continue switch case default goto sizeof int unsigned ' +
  'signed float double long short char void bool const volatile static auto struct true false').split(' '));
export function meaningful(line) {
  const tokens = line.match(/[A-Za-z_][A-Za-z0-9_]*|\d+/g) ?? [];
  return tokens.length >= 3 && tokens.some((t) => /^[A-Za-z_]/.test(t) && t.length >= 2 && !C_WORDS.has(t));
}

// The answer lines a text holds (anywhere in it, spaces aside).
export function answersIn(text, answers) {
  const squeezed = squeeze(text);
  return answers.filter((a) => squeezed.includes(a.key));
}

const labDirs = (top) =>
  fs.existsSync(top) ? fs.readdirSync(top).filter((d) => /^\d\d-/.test(d) && fs.statSync(path.join(top, d)).isDirectory()).sort() : [];

// [{lab, file, text, key}]: every answer line of every lab that has a solution and a skeleton.
export function answerLines(root) {
  const answers = [];
  for (const lab of labDirs(path.join(root, 'solutions'))) {
    const solDir = path.join(root, 'solutions', lab);
    for (const f of fs.readdirSync(solDir).filter((x) => x.endsWith('.cu')).sort()) {
      const skeleton = path.join(root, 'labs', lab, f);
      if (!fs.existsSync(skeleton)) continue;
      // (code the skeleton already holds is given, whatever comment follows it there)
      const code = (line) => squeeze(line.replace(/\/\*.*?\*\/\s*$|\/\/.*$/, ''));
      const given = new Set(fs.readFileSync(skeleton, 'utf8').split('\n').map(code));
      const seen = new Set();
      for (const raw of fs.readFileSync(path.join(solDir, f), 'utf8').split('\n')) {
        const text = raw.trim(), key = squeeze(raw);
        if (!text || MARKER.test(raw) || given.has(key) || given.has(code(raw)) || seen.has(key) || !meaningful(text))
          continue;
        seen.add(key);
        answers.push({ lab, file: `solutions/${lab}/${f}`, text, key });
      }
    }
  }
  return answers;
}

const ENTITIES = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: ' ' };
const codePoint = (n) => (n >= 0 && n <= 0x10ffff ? String.fromCodePoint(n) : '');
const decodeEntities = (s) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e) =>
    e[0] !== '#' ? ENTITIES[e.toLowerCase()] ?? m : codePoint(/^#x/i.test(e) ? parseInt(e.slice(2), 16) : Number(e.slice(1))));
// What a reader of a marked-up file sees: the text between the tags, entities decoded.
const readerText = (s) => decodeEntities(s.replace(/<[^>]*>/g, ''));
const uriText = (s) => { try { return decodeURIComponent(s); } catch { return s; } };

// Every text a file holds, squeezed: the file itself, its reader's text, and the same of each
// data: URI in it (base64 or percent-encoded: it runs to a double quote or a space, since
// encodeURIComponent leaves ' ( ) as they are), to a depth of three.
export function textsOf(content, depth = 0) {
  const texts = [squeeze(content), squeeze(readerText(content))];
  if (depth < 3) {
    for (const m of content.matchAll(/data:[a-z0-9.+\/-]+((?:;[a-z0-9=.-]+)*),([^"\s]+)/gi)) {
      const inner = /;base64$/i.test(m[1]) ? Buffer.from(m[2], 'base64').toString('utf8') : uriText(m[2]);
      texts.push(...textsOf(inner, depth + 1));
    }
  }
  return texts;
}

function filesUnder(dir) {
  const out = [];
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) { if (e.name !== '.git') walk(p); }
      else if (e.isFile()) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

// {found: [{file, lab, text}], given: [{lab, text, by}]} for the folder dir. The files under
// dir/labs are what the course writes for students (skeletons, lab READMEs): an answer line one of
// them holds is given by it, and sought nowhere else; every other file must hold none.
export function search(dir, answers) {
  const files = filesUnder(dir).map((file) => ({ rel: path.relative(dir, file), texts: textsOf(fs.readFileSync(file, 'utf8')) }));
  const holds = (f, a) => f.texts.some((t) => t.includes(a.key));
  const labFiles = files.filter((f) => f.rel.startsWith(`labs${path.sep}`));
  const given = [], found = [];
  for (const a of answers) {
    const by = labFiles.find((f) => holds(f, a));
    if (by) { given.push({ lab: a.lab, text: a.text, by: by.rel }); continue; }
    for (const f of files) if (holds(f, a)) found.push({ file: f.rel, lab: a.lab, text: a.text });
  }
  return { found, given };
}

function main(argv) {
  let root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
  if (argv[0] === '--root') { root = path.resolve(argv[1]); argv = argv.slice(2); }
  const [cmd, dir] = argv;
  const answers = answerLines(root);
  if (answers.length === 0) {
    console.error(`answers: no answer lines under ${root}/solutions: nothing to search for`);
    return 2;
  }
  if (cmd === 'list' && !dir) {
    for (const a of answers) console.log(`${a.lab}\t${a.text}`);
    return 0;
  }
  if (cmd === 'search' && dir && fs.existsSync(dir) && fs.statSync(dir).isDirectory()) {
    const { found, given } = search(dir, answers);
    for (const g of given) console.log(`given: ${g.by} gives lab ${g.lab.slice(0, 2)}'s answer line: ${g.text}`);
    for (const f of found) console.log(`FOUND: ${f.file} holds lab ${f.lab.slice(0, 2)}'s answer line: ${f.text}`);
    console.log(`answers: ${found.length} of ${answers.length - given.length} answer lines found in ${dir}` +
      (given.length ? ` (${given.length} more are given by its labs/ files)` : ''));
    return found.length ? 1 : 0;
  }
  console.error('usage: answers.mjs [--root KIT] list | search DIR');
  return 2;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname))
  process.exit(main(process.argv.slice(2)));
