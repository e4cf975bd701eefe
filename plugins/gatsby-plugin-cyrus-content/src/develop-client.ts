/**
 * The develop bundle's entry for the content check: src/webpack.ts adds this file to the `commons`
 * entry of stage "develop" only. There is no gatsby-browser file, which would put the overlay into
 * every production page.
 */
import { listenForProblems } from "./overlay-client";

if (typeof EventSource !== "undefined") listenForProblems();
