import { parse } from 'yaml';

// YAML for skill frontmatter on every runtime but Node: the `yaml` package's ESM build. Node
// resolves `#yaml` to yaml-parse-node.ts (package.json `imports`).

/** Parses one YAML document with the given options (YAML 1.2 core schema by default). */
export function parseYaml(text: string, options: { schema: 'core'; uniqueKeys: boolean }): unknown {
  return parse(text, options);
}
