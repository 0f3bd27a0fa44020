/** The languages offered when a client completes `explain-code`'s `language` argument. */
export const LANGUAGES: readonly string[] = [
  'bash',
  'c',
  'cpp',
  'csharp',
  'go',
  'java',
  'javascript',
  'kotlin',
  'python',
  'ruby',
  'rust',
  'sql',
  'swift',
  'typescript',
];
