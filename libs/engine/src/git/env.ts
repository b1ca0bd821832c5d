// Environment and config overrides that keep git from reading user/system
// config, prompting, running hooks, helpers, filters or external programs.
export function safeGitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: '/nonexistent',
    XDG_CONFIG_HOME: '/nonexistent',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '/bin/false',
    SSH_ASKPASS: '/bin/false',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_EDITOR: 'false',
    GIT_EXTERNAL_DIFF: '',
    GIT_PROTOCOL_FROM_USER: '0',
    LC_ALL: 'C',
    TZ: 'UTC',
  };
  return env;
}

/** `-c` overrides placed before every subcommand (command-line config beats repository config). */
export const SAFE_CONFIG_ARGS: readonly string[] = [
  '--no-replace-objects',
  '-c', 'core.hooksPath=/dev/null',
  '-c', 'core.fsmonitor=false',
  '-c', 'core.pager=cat',
  '-c', 'core.editor=false',
  '-c', 'core.askPass=/bin/false',
  '-c', 'core.sshCommand=/bin/false',
  '-c', 'core.gitProxy=',
  '-c', 'core.attributesFile=/dev/null',
  '-c', 'core.symlinks=false',
  '-c', 'credential.helper=',
  '-c', 'diff.external=',
  '-c', 'protocol.file.allow=never',
  '-c', 'protocol.ext.allow=never',
  '-c', 'protocol.ssh.allow=never',
  '-c', 'submodule.recurse=false',
  '-c', 'uploadpack.packObjectsHook=',
  '-c', 'log.showSignature=false',
  '-c', 'gc.auto=0',
  '-c', 'maintenance.auto=false',
];
