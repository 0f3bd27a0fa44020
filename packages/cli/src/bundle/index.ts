export { bundleServer, type BundleRequest, type BundleResult } from './bundle-server.js';
