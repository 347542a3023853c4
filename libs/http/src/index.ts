export * from './app.js';
export * from './auth.js';
export * from './errors.js';
export * from './projects.js';
