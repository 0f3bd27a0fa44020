import { builtinModules } from 'node:module';

const RESERVED = new Set(['node_modules', 'favicon.ico']);
const SCOPED = /^@([^/]+)\/([^/]+)$/;

/**
 * Why `name` cannot be published as a new npm package, or undefined when it can. Follows the
 * rules of `validate-npm-package-name` for new packages, without the dependency.
 *
 * @example
 * ```ts
 * packageNameProblem('my-server'); // undefined
 * packageNameProblem('My Server'); // 'it cannot contain capital letters'
 * ```
 */
export function packageNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'it cannot be empty';
  if (name.trim() !== name) return 'it cannot start or end with spaces';
  if (name.length > 214) return 'it cannot be longer than 214 characters';
  if (name.startsWith('.')) return 'it cannot start with a period';
  if (name.startsWith('_')) return 'it cannot start with an underscore';
  if (name.toLowerCase() !== name) return 'it cannot contain capital letters';
  if (/[~'!()*]/.test(name)) return `it cannot contain any of ~'!()*`;
  if (RESERVED.has(name)) return `${name} is a reserved name`;
  if (builtinModules.includes(name)) return `${name} is the name of a Node.js core module`;
  const scoped = SCOPED.exec(name);
  const parts = scoped ? [scoped[1], scoped[2]] : [name];
  if (parts.some((part) => encodeURIComponent(part) !== part || part.startsWith('.'))) {
    return 'it can only contain URL-friendly characters (letters, digits, - . _ ~ and one @scope/)';
  }
  return undefined;
}
