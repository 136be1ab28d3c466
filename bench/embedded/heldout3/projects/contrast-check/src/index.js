export { contrastRatio, hexToRgb, meetsAA, relativeLuminance } from "./contrast.js";
