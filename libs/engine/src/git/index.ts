export { runGit, streamGitLines, resolveGitDir, type GitRunOptions, type LineStreamOptions } from './runner';
export { startGit, gitArgs, type GitProcess, type GitProcessOptions } from './process';
export { safeGitEnv, SAFE_CONFIG_ARGS } from './env';
export { BlobReader } from './catfile';
export { listTree, type TreeEntry } from './lstree';
