// Gatsby 5 compiles CSS Modules to named exports: `import * as styles from "./x.module.css"`.
declare module "*.module.css" {
  const classes: { readonly [key: string]: string };
  export = classes;
}
