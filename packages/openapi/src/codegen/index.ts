export {
  generateClasses,
  GENERATED_MARK,
  type GenerateOptions,
  type GeneratedFile,
} from './generate.js';
export { writeClasses, type WriteReport } from './write.js';
