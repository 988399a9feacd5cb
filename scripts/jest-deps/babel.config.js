// How the jest template transforms test files (languages/jest.json): the TypeScript types are
// stripped and ES modules become CommonJS; Node.js runs the rest of the syntax as it is.
module.exports = {
  presets: [['@babel/preset-typescript', { allowDeclareFields: true }]],
  plugins: ['@babel/plugin-transform-modules-commonjs'],
};
