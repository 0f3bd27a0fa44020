import { recordMember, type MemberKey } from './metadata.js';

type Tc39Context = {
  kind: string;
  name: MemberKey;
  static: boolean;
  metadata: object | undefined;
};

/** A decorator usable on methods under both `experimentalDecorators` and TC39 decorators. */
export type MethodDecorator = {
  (target: object, key: MemberKey, descriptor?: PropertyDescriptor): void;
  (value: Function, context: ClassMethodDecoratorContext): void;
};

function isTc39Context(value: unknown): value is Tc39Context {
  return typeof value === 'object' && value !== null && 'kind' in value;
}

/**
 * Builds a method decorator that records `options` under `kind`. It tells the two decorator
 * conventions apart by its second argument (toolchain.md §3): TC39 passes a context object with
 * `kind`, legacy passes the property key.
 */
export function methodDecorator(
  kind: string,
  decoratorName: string,
  options: unknown,
): MethodDecorator {
  const frozen = Object.freeze(options);
  return ((target: object, keyOrContext: MemberKey | Tc39Context) => {
    if (isTc39Context(keyOrContext)) {
      if (keyOrContext.kind !== 'method') {
        throw new TypeError(`${decoratorName} decorates methods, not a ${keyOrContext.kind}`);
      }
      if (!keyOrContext.metadata) {
        throw new TypeError(
          `${decoratorName}: the compiler passed no decorator metadata object. ` +
            'Import @mcp-fw/core before the decorated class is evaluated.',
        );
      }
      recordMember(keyOrContext.metadata, kind, {
        key: keyOrContext.name,
        isStatic: keyOrContext.static,
        options: frozen,
        tc39: true,
      });
      return;
    }
    const isStatic = typeof target === 'function';
    const holder = isStatic ? target : (target as { constructor: Function }).constructor;
    recordMember(holder, kind, { key: keyOrContext, isStatic, options: frozen });
  }) as MethodDecorator;
}
