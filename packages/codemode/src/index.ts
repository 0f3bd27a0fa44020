export { quickJsSandbox, type QuickJsSandboxOptions } from './quickjs-sandbox.js';
