/**
 * `gatsby-plugin-image` in the studio's bundle: the views take its IGatsbyImageData type only (their
 * Picture renders it), so no code of the plugin is needed; previews make that data from an asset URL.
 */
export type { IGatsbyImageData } from "gatsby-plugin-image";
