// ESLint for the browser client (roses/web): ES modules run by browsers, checked with the
// recommended rules (undefined names, unused variables and imports, unreachable code...).
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: [".venv/", "node_modules/", "var/"] },
  {
    files: ["roses/web/**/*.js"],
    ...js.configs.recommended,
    languageOptions: {
      ecmaVersion: "latest",
      sourceType: "module",
      globals: globals.browser,
    },
    rules: {
      ...js.configs.recommended.rules,
      // `const { dropped, ...kept } = object` leaves a field out on purpose.
      "no-unused-vars": ["error", { ignoreRestSiblings: true }],
    },
  },
  {
    // The service worker is a classic worker script, not a page's module.
    files: ["roses/web/sw.js"],
    languageOptions: { sourceType: "script", globals: globals.serviceworker },
  },
  {
    files: ["eslint.config.js"],
    languageOptions: { sourceType: "module" },
  },
];
