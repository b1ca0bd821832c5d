export { runGit, spawnGit, gitArgs, resolveGitDir, type GitRunOptions } from './runner';
export { safeGitEnv, SAFE_CONFIG_ARGS } from './env';
export { BlobReader } from './catfile';
export { listTree, type TreeEntry } from './lstree';
