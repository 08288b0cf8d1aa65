/** The filesystem actions, each closed over the policy it was registered with. */
import type { FlowPolicy } from './policy.js';
import { listDirectory, listDirectorySchema, readFile, readFileSchema, statPath, statPathSchema } from './fs-read.js';
import {
  copyPath,
  copyPathSchema,
  makeDirectory,
  makeDirectorySchema,
  makeTemp,
  makeTempSchema,
  movePath,
  movePathSchema,
  removePath,
  removePathSchema,
  writeFile,
  writeFileSchema,
} from './fs-write.js';
import type { Registration } from './shared.js';

export function filesystemActions(policy: FlowPolicy): Registration[] {
  return [
    { schema: readFileSchema, handler: readFile(policy) },
    { schema: listDirectorySchema, handler: listDirectory(policy) },
    { schema: statPathSchema, handler: statPath(policy) },
    { schema: writeFileSchema, handler: writeFile(policy) },
    { schema: makeDirectorySchema, handler: makeDirectory(policy) },
    { schema: removePathSchema, handler: removePath(policy) },
    { schema: movePathSchema, handler: movePath(policy) },
    { schema: copyPathSchema, handler: copyPath(policy) },
    { schema: makeTempSchema, handler: makeTemp(policy) },
  ];
}
