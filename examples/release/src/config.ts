/** Settings of the release server, from `--name=value` arguments or `RELEASE_*` variables. */
export interface ReleaseConfig {
  /** `--confirm-timeout-ms` / `RELEASE_CONFIRM_TIMEOUT_MS` (default 5 minutes: a human answers). */
  confirmTimeoutMs: number;
  /** `--step-ms` / `RELEASE_STEP_MS`: how long each simulated step takes (default 200). */
  stepMs: number;
}

const SETTINGS = {
  confirmTimeoutMs: {
    flag: '--confirm-timeout-ms',
    env: 'RELEASE_CONFIRM_TIMEOUT_MS',
    fallback: 300_000,
  },
  stepMs: { flag: '--step-ms', env: 'RELEASE_STEP_MS', fallback: 200 },
} as const;

/** Reads the settings; a value that is not a non-negative integer fails at startup, naming it. */
export function readConfig(argv: readonly string[], env: NodeJS.ProcessEnv): ReleaseConfig {
  const config = {} as ReleaseConfig;
  for (const [key, { flag, env: name, fallback }] of Object.entries(SETTINGS)) {
    const arg = argv.find((a) => a.startsWith(`${flag}=`))?.slice(flag.length + 1);
    const raw = arg ?? env[name];
    const value = raw === undefined ? fallback : Number(raw);
    if (!Number.isInteger(value) || value < 0) {
      throw new Error(`${flag} (${name}) must be a whole number of ms, got "${raw}"`);
    }
    config[key as keyof ReleaseConfig] = value;
  }
  return config;
}
