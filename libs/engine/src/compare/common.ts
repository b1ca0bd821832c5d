// Material that is common across unrelated code and therefore weighs nothing.
// Names and identifiers measured as frequent in ordinary projects; kept short
// on purpose, the per-repository frequency rules do most of the work.

export const COMMON_DIRS = new Set([
  'src', 'lib', 'libs', 'test', 'tests', '__tests__', 'spec', 'specs', 'docs', 'doc', 'bin', 'scripts', 'script', 'examples', 'example',
  'internal', 'pkg', 'cmd', 'app', 'apps', 'components', 'utils', 'util', 'helpers', 'common', 'core', 'api', 'config', 'configs',
  '.github', '.github/workflows', 'assets', 'public', 'static', 'types', 'models', 'services', 'routes', 'middleware', 'tools',
  'fixtures', 'test/fixtures', 'benchmark', 'benchmarks', 'bench', 'contracts', 'interfaces', 'mocks', 'data', 'include', 'packages',
  'main', 'java', 'resources', 'src/main', 'src/test', 'src/main/java', 'src/test/java', 'lib/src', 'test/unit', 'test/integration',
]);

export const COMMON_BASENAMES = new Set([
  'index', 'main', 'utils', 'util', 'helpers', 'helper', '__init__', 'setup', 'mod', 'lib', 'app', 'config', 'constants', 'types',
  'package', 'readme', 'license', 'licence', 'changelog', 'history', 'contributing', 'makefile', 'dockerfile', 'server', 'client',
  'test', 'tests', 'common', 'errors', 'error', 'version', 'cli', 'api', 'router', 'routes', 'request', 'response', 'application',
  'context', 'model', 'models', 'base', 'core', 'manager', 'handler', 'handlers', 'logger', 'log', 'options', 'settings', 'init',
  'tsconfig', 'jest.config', '.eslintrc', '.gitignore', '.npmignore', '.travis', '.editorconfig', 'conftest', 'global', 'globals',
  'example', 'demo', 'benchmark', 'bench', 'build', 'webpack.config', 'rollup.config', 'babel.config', 'go', 'cargo', 'pom',
  'parser', 'lexer', 'token', 'tokenizer', 'ast', 'compiler', 'runtime', 'string', 'strings', 'math', 'io', 'fs', 'http', 'url',
]);

export const COMMON_IDENTIFIERS = new Set([
  'constructor', 'prototype', 'undefined', 'function', 'toString', 'hasOwnProperty', 'callback', 'arguments', 'require', 'exports',
  'module', 'console', 'length', 'push', 'forEach', 'Object', 'Array', 'String', 'Number', 'Boolean', 'Promise', 'resolve', 'reject',
  'process', 'Buffer', 'JSON', 'parse', 'stringify', 'default', 'options', 'result', 'results', 'value', 'values', 'response', 'request',
  'message', 'handler', 'context', 'config', 'params', 'object', 'string', 'number', 'boolean', 'indexOf', 'replace', 'substring',
  'toLowerCase', 'toUpperCase', 'include', 'println', 'printf', 'fprintf', 'malloc', 'sizeof', 'return', 'self', 'super', 'isinstance',
  'append', 'extend', 'assert', 'assertEqual', 'expect', 'toEqual', 'toBe', 'describe', 'errors', 'fmt.Println', 'context', 'ctx',
  'keccak256', 'msg.sender', 'require', 'emit', 'mapping', 'address', 'uint256', 'override', 'public', 'external', 'memory',
  'setTimeout', 'setInterval', 'clearTimeout', 'addEventListener', 'document', 'window', 'querySelector', 'getElementById',
  'property', 'staticmethod', 'classmethod', 'unittest', 'TestCase', 'setUp', 'tearDown', 'println!', 'unwrap', 'iter', 'collect',
  'Result', 'Option', 'String', 'Vec', 'HashMap', 'Error', 'TypeError', 'RangeError', 'Exception', 'RuntimeException', 'Override',
  'System', 'out', 'ArrayList', 'List', 'Map', 'HashSet', 'Set', 'Integer', 'Math', 'Date', 'RegExp', 'Symbol', 'iterator',
  'encoding', 'statusCode', 'headers', 'content', 'Content-Type', 'application', 'middleware', 'listener', 'listeners',
]);

export const COMMON_DEPENDENCIES = new Set([
  'lodash', 'react', 'react-dom', 'express', 'debug', 'chalk', 'commander', 'yargs', 'typescript', 'jest', 'mocha', 'chai', 'eslint',
  'prettier', 'webpack', 'babel-core', '@babel/core', '@babel/preset-env', 'ts-node', 'tslib', '@types/node', '@types/jest', 'rimraf',
  'nodemon', 'dotenv', 'axios', 'uuid', 'moment', 'semver', 'glob', 'minimist', 'mkdirp', 'fs-extra', 'async', 'bluebird', 'underscore',
  'request', 'supertest', 'should', 'sinon', 'nyc', 'istanbul', 'coveralls', 'vary', 'ms', 'inherits', 'safe-buffer', 'depd',
  'requests', 'numpy', 'pandas', 'pytest', 'six', 'setuptools', 'wheel', 'flask', 'django', 'click', 'pyyaml',
  'serde', 'serde_json', 'tokio', 'rand', 'log', 'anyhow', 'thiserror', 'clap', 'github.com/stretchr/testify', 'golang.org/x/sys',
  'forge-std', '@openzeppelin/contracts', 'hardhat', 'ethers', 'web3', 'dependency-check', 'standard', 'tape', 'xo', 'ava',
]);

/** Licence and copyright text in comments or files carries no weight. */
export const LICENCE_TEXT = /copyright|licen[cs]e|permission is hereby granted|spdx-license-identifier|all rights reserved|warranty|redistribution and use|apache\.org\/licenses|gnu general public/i;
