import { expect, it } from 'vitest';
import { packageNameProblem } from '../src/package-name.ts';

it('accepts the names npm accepts for new packages', () => {
  for (const name of [
    'my-server',
    'mcp.weather',
    'a_b',
    'x1',
    '@acme/weather',
    '@acme/mcp.server',
  ]) {
    expect(packageNameProblem(name), name).toBeUndefined();
  }
});

it.each([
  ['', 'it cannot be empty'],
  [' padded', 'it cannot start or end with spaces'],
  ['a'.repeat(215), 'it cannot be longer than 214 characters'],
  ['.hidden', 'it cannot start with a period'],
  ['_private', 'it cannot start with an underscore'],
  ['MyServer', 'it cannot contain capital letters'],
  ['wow!', "it cannot contain any of ~'!()*"],
  ['node_modules', 'node_modules is a reserved name'],
  ['http', 'http is the name of a Node.js core module'],
  [
    'my server',
    'it can only contain URL-friendly characters (letters, digits, - . _ ~ and one @scope/)',
  ],
  ['a/b', 'it can only contain URL-friendly characters (letters, digits, - . _ ~ and one @scope/)'],
  [
    '@acme/a/b',
    'it can only contain URL-friendly characters (letters, digits, - . _ ~ and one @scope/)',
  ],
  [
    '@acme/.x',
    'it can only contain URL-friendly characters (letters, digits, - . _ ~ and one @scope/)',
  ],
])('refuses %j: %s', (name, problem) => {
  expect(packageNameProblem(name)).toBe(problem);
});
