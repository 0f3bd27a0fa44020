// Loads reflect-metadata (the global Reflect.getMetadata/defineMetadata that TypeScript's
// `emitDecoratorMetadata` output writes to), by the import every runtime and bundler knows.
// Node resolves `#load-reflect-metadata` to load-metadata-node.ts instead (package.json `imports`).
import 'reflect-metadata';
