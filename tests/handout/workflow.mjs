// tests/handout/workflow.mjs HANDOUT: reads the handout's Classroom workflow as YAML and holds it
// to GitHub Classroom's format (classroom-resources/autograding-command-grader and
// autograding-grading-reporter, as Classroom itself writes it): the workflow "Autograding Tests"
// with one job, run-autograding-tests; each test a command-grader step with an id, test-name,
// command, timeout (minutes) and a whole-number max-score; last, the reporter, with one
// <ID IN CAPITALS>_RESULTS variable per test and the ids as its runners. Prints one line per test:
// LAB<TAB>KERNEL<TAB>MAX-SCORE<TAB>COMMAND. Exit 1, saying what is wrong, otherwise.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const yaml = require('../../slides/node_modules/js-yaml'); // installed by make slides-deps
const dir = process.argv[2];
const file = path.join(dir ?? '', '.github/workflows/classroom.yml');
const problems = [];
const want = (cond, what) => { if (!cond) problems.push(what); };

const w = yaml.load(fs.readFileSync(file, 'utf8'));
want(w.name === 'Autograding Tests', `the workflow is named '${w.name}', not 'Autograding Tests' (the reporter's check run)`);
want(Array.isArray(w.on) && w.on.includes('push'), 'it does not run on push');
want(w.permissions?.checks === 'write' && w.permissions?.contents === 'read', 'permissions: checks write, contents read');
const jobs = Object.keys(w.jobs ?? {});
want(jobs.length === 1 && jobs[0] === 'run-autograding-tests', `jobs: ${jobs.join(', ')}: one, run-autograding-tests`);
const steps = w.jobs?.['run-autograding-tests']?.steps ?? [];
want(steps[0]?.uses?.startsWith('actions/checkout@'), 'the first step checks the repository out');
const tests = steps.filter((s) => s.uses === 'classroom-resources/autograding-command-grader@v1');
const reporter = steps.at(-1);
want(reporter?.uses === 'classroom-resources/autograding-grading-reporter@v1', 'the last step is the reporter');
const ids = [];
for (const t of tests) {
  const w_ = t.with ?? {};
  want(/^[A-Za-z_][A-Za-z0-9_-]*$/.test(t.id ?? ''), `test '${t.name}': id '${t.id}' is not a step id`);
  want(typeof w_['test-name'] === 'string' && w_['test-name'], `test ${t.id}: no test-name`);
  want(typeof w_.command === 'string' && w_.command, `test ${t.id}: no command`);
  want(Number.isInteger(w_['max-score']) && w_['max-score'] > 0, `test ${t.id}: max-score ${w_['max-score']} is not a whole number`);
  want(Number(w_.timeout) > 0 && Number(w_.timeout) <= 360, `test ${t.id}: timeout ${w_.timeout} minutes`);
  const env = reporter?.env?.[`${String(t.id).toUpperCase()}_RESULTS`];
  want(env === `\${{steps.${t.id}.outputs.result}}`, `the reporter does not read ${t.id}'s result`);
  ids.push(t.id);
}
want(tests.length > 0, 'no test');
want(new Set(ids).size === ids.length, 'two tests share an id');
want(reporter?.with?.runners === ids.join(','), 'the reporter\'s runners are not the tests\' ids');
want(Object.keys(reporter?.env ?? {}).length === ids.length, 'the reporter reads variables of no test');
if (problems.length) {
  for (const p of problems) console.error(`${file}: ${p}`);
  process.exit(1);
}
for (const t of tests) {
  const [, lab, kernel] = t.with.command.split(/\s+/);
  console.log([lab, kernel, t.with['max-score'], t.with.command].join('\t'));
}
