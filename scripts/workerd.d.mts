import type { ChildProcess } from 'node:child_process';

export declare const WORKERD: string;
export declare const COMPATIBILITY_DATE: string;

/** What to serve: a module worker entry and the Durable Object classes it exports. */
export interface WorkerdSpec {
  /** The module to bundle (ignored when `module` is given). */
  readonly entry?: string;
  /** A module worker bundled already (one ES module), served as it is. */
  readonly module?: string;
  readonly port?: number;
  readonly durableObjects?: readonly { readonly className: string; readonly binding: string }[];
  readonly vars?: Readonly<Record<string, string>>;
  /** workerd's stdout and stderr go to this process's instead of `output()`. */
  readonly inherit?: boolean;
}

export interface RunningWorkerd {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly child: ChildProcess;
  /** What workerd wrote to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

export declare function bundleWorker(entry: string): Promise<string>;
export declare function workerdConfig(spec: Omit<WorkerdSpec, 'entry'> & { port: number }): string;
export declare function startWorkerd(spec: WorkerdSpec): Promise<RunningWorkerd>;
