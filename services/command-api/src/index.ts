export * from './commandApi.js';
export * from './deps.js';
export * from './accounts/accountCommands.js';
export * from './projects/projectCommands.js';
export { streamTokenDirectory } from './tokenDirectory.js';
export { createComment, executeCommentCommand } from './comments/commentCommands.js';
