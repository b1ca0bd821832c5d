export { runGit, spawnGit, streamGitLines, gitArgs, resolveGitDir, type GitRunOptions, type LineStreamOptions } from './runner';
export { safeGitEnv, SAFE_CONFIG_ARGS } from './env';
export { BlobReader } from './catfile';
export { listTree, type TreeEntry } from './lstree';
