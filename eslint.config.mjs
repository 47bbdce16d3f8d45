import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    // jest loads its test environment before any transform, so that one file is CommonJS.
    files: ['test/helpers/*.js'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
