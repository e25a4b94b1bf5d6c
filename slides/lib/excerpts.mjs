// Code excerpts marked in solutions/: a line `// slide: NAME` opens one, `// slide: end` closes it.
// The marker lines themselves are not part of the excerpt.
import fs from 'node:fs';
import path from 'node:path';
import { DeckError } from './results.mjs';

const OPEN = /^\s*\/\/ slide: (\S+)\s*$/;

// All excerpts of every .cu file under solutionsDir: name -> {name, file, first, last, lines}.
export function loadExcerpts(root, solutionsDir = 'solutions') {
  const excerpts = new Map();
  const top = path.join(root, solutionsDir);
  for (const lab of fs.readdirSync(top).sort()) {
    const dir = path.join(top, lab);
    if (!fs.statSync(dir).isDirectory()) continue;
    for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.cu')).sort()) {
      const rel = path.join(solutionsDir, lab, f);
      const lines = fs.readFileSync(path.join(dir, f), 'utf8').split('\n');
      let open = null;
      lines.forEach((line, i) => {
        const m = OPEN.exec(line);
        if (!m) return;
        if (m[1] === 'end') {
          if (!open) throw new DeckError(`${rel}:${i + 1}: '// slide: end' with no open excerpt`);
          open.last = i; // 1-based line number of the excerpt's last line is i
          open.lines = lines.slice(open.first - 1, i);
          if (open.lines.length === 0) throw new DeckError(`${rel}:${i + 1}: excerpt '${open.name}' is empty`);
          excerpts.set(open.name, open);
          open = null;
        } else {
          if (open) throw new DeckError(`${rel}:${i + 1}: excerpt '${m[1]}' opens inside '${open.name}' (excerpts do not nest)`);
          if (excerpts.has(m[1])) throw new DeckError(`${rel}:${i + 1}: excerpt name '${m[1]}' is used twice`);
          open = { name: m[1], file: rel, lab, first: i + 2, last: 0, lines: [] };
        }
      });
      if (open) throw new DeckError(`${rel}: excerpt '${open.name}' is never closed with '// slide: end'`);
    }
  }
  return excerpts;
}

export function excerpt(excerpts, name) {
  const e = excerpts.get(name);
  if (!e) throw new DeckError(`no excerpt '${name}' in solutions/: mark it with '// slide: ${name}' ... '// slide: end'`);
  return e;
}

// The excerpt's lines with their common indentation removed, for display.
export function dedented(e) {
  const indents = e.lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)[0].length);
  const cut = Math.min(...indents);
  return e.lines.map((l) => l.slice(cut));
}
