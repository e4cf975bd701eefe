#!/usr/bin/env node
/**
 * make-images.mjs: generates the site's source images.
 *
 * Why this script exists: the client's photographs are not available, so the site ships with
 * ORIGINAL abstract images (bokeh, gradients, molecule, helix, grid and wave motifs, film grain),
 * badge graphics of our own for the approvals, and a simple mark for the logo. None of them
 * copies a real photograph, logo or emblem.
 *
 * The build never runs this script. Editors replace any image by dropping in a file with the
 * same name at the same path. Running this script again OVERWRITES the files it knows about,
 * so after real photographs arrive, run it only with `--only <substring>` (or not at all).
 *
 * Usage:  node src/scripts/make-images.mjs [--only <substring of the output path>]
 *
 * The output is deterministic: every random choice comes from a PRNG seeded from the output
 * path, so one name always gives the same image. Only `sharp` and Node built-ins are used.
 */
import sharp from "sharp";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const FONT = "DejaVu Sans, Liberation Sans, Arial, sans-serif";

sharp.cache(false);

/* ------------------------------------------------------------------ random numbers */

function hashString(s) {
  let h = 2166136261 >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619) >>> 0;
  }
  return h;
}

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeRng(name) {
  const f = mulberry32(hashString(name));
  const R = {
    f,
    range: (a, b) => a + (b - a) * f(),
    int: (a, b) => Math.floor(a + (b - a + 1) * f()),
    pick: (arr) => arr[Math.floor(f() * arr.length)],
    chance: (p) => f() < p,
    sign: () => (f() < 0.5 ? -1 : 1),
    gauss: () => (f() + f() + f() + f() - 2) / 0.577,
  };
  return R;
}

/* ------------------------------------------------------------------ colour and svg helpers */

const n = (v) => Math.round(v * 10) / 10;
const hexToRgb = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16));
const rgbToHex = (c) =>
  "#" +
  c
    .map((v) =>
      Math.max(0, Math.min(255, Math.round(v)))
        .toString(16)
        .padStart(2, "0"),
    )
    .join("");
const mix = (a, b, t) => {
  const A = hexToRgb(a);
  const B = hexToRgb(b);
  return rgbToHex(A.map((v, i) => v + (B[i] - v) * t));
};

/** Catmull-Rom spline through points, as an SVG path. */
function smoothPath(pts, close = false) {
  if (pts.length < 2) return "";
  const p = close ? [pts[pts.length - 1], ...pts, pts[0], pts[1]] : [pts[0], ...pts, pts[pts.length - 1]];
  let d = `M${n(p[1][0])},${n(p[1][1])}`;
  for (let i = 1; i < p.length - 2; i++) {
    const [x0, y0] = p[i - 1];
    const [x1, y1] = p[i];
    const [x2, y2] = p[i + 1];
    const [x3, y3] = p[i + 2];
    d += `C${n(x1 + (x2 - x0) / 6)},${n(y1 + (y2 - y0) / 6)} ${n(x2 - (x3 - x1) / 6)},${n(y2 - (y3 - y1) / 6)} ${n(x2)},${n(y2)}`;
  }
  return close ? d + "Z" : d;
}

const polyPoints = (cx, cy, r, sides, rot = 0) =>
  Array.from({ length: sides }, (_, i) => {
    const a = rot + (i / sides) * Math.PI * 2;
    return `${n(cx + r * Math.cos(a))},${n(cy + r * Math.sin(a))}`;
  }).join(" ");

class Layer {
  constructor(prefix) {
    this.prefix = prefix;
    this.defs = [];
    this.body = [];
    this.count = 0;
  }
  uid() {
    return `${this.prefix}${this.count++}`;
  }
  add(s) {
    this.body.push(s);
  }
  def(s) {
    this.defs.push(s);
  }
  /** A radial gradient usable as a soft glow fill (objectBoundingBox). */
  glowGrad(color, inner = 1, mid = 0.35) {
    const id = this.uid();
    this.def(
      `<radialGradient id="${id}"><stop offset="0" stop-color="${color}" stop-opacity="${inner}"/>` +
        `<stop offset="0.45" stop-color="${color}" stop-opacity="${mid}"/>` +
        `<stop offset="1" stop-color="${color}" stop-opacity="0"/></radialGradient>`,
    );
    return id;
  }
  /** A bokeh disc gradient: flat body, slightly brighter rim, soft edge. */
  bokehGrad(color) {
    const id = this.uid();
    this.def(
      `<radialGradient id="${id}"><stop offset="0" stop-color="${color}" stop-opacity="0.55"/>` +
        `<stop offset="0.72" stop-color="${color}" stop-opacity="0.62"/>` +
        `<stop offset="0.9" stop-color="${color}" stop-opacity="0.85"/>` +
        `<stop offset="1" stop-color="${color}" stop-opacity="0"/></radialGradient>`,
    );
    return id;
  }
  get empty() {
    return this.body.length === 0;
  }
}

/**
 * One layer as an SVG document. Blurred layers are drawn on a canvas padded by PAD on every side
 * (cropped away again in renderLayer), so that content just outside the frame still blurs into it
 * instead of leaving a transparent rim.
 */
const PAD = 0.12;
function layerSvg(layer, W, H, scale, { blur = 0, glow = 0, glowGain = 1.4 } = {}) {
  const px = blur > 0 ? Math.round(W * PAD) : 0;
  const py = blur > 0 ? Math.round(H * PAD) : 0;
  const w = Math.max(1, Math.round((W + 2 * px) * scale));
  const h = Math.max(1, Math.round((H + 2 * py) * scale));
  let filter = "";
  let attr = "";
  const region = `filterUnits="userSpaceOnUse" x="${-W * 0.2}" y="${-H * 0.2}" width="${W * 1.4}" height="${H * 1.4}"`;
  if (blur > 0) {
    filter = `<filter id="lblur" ${region}><feGaussianBlur stdDeviation="${blur}"/></filter>`;
    attr = ` filter="url(#lblur)"`;
  } else if (glow > 0) {
    filter =
      `<filter id="lglow" ${region}><feGaussianBlur in="SourceGraphic" stdDeviation="${glow}" result="b"/>` +
      `<feComponentTransfer in="b" result="bb"><feFuncA type="linear" slope="${glowGain}"/></feComponentTransfer>` +
      `<feMerge><feMergeNode in="bb"/><feMergeNode in="SourceGraphic"/></feMerge></filter>`;
    attr = ` filter="url(#lglow)"`;
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="${-px} ${-py} ${W + 2 * px} ${H + 2 * py}">` +
    `<defs>${layer.defs.join("")}${filter}</defs><g${attr}>${layer.body.join("")}</g></svg>`
  );
}

/** Render a layer (see layerSvg) to raw RGBA at the full W×H. */
async function renderLayer(layer, W, H, scale, opts = {}) {
  // Two steps on purpose: resizing an SVG input in one pipeline makes sharp re-render the
  // vector at the target size, which defeats rendering soft layers at low resolution.
  const { data, info } = await sharp(Buffer.from(layerSvg(layer, W, H, scale, opts)))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  let img = sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } });
  if (opts.blur > 0) {
    const left = Math.round(W * PAD * scale);
    const top = Math.round(H * PAD * scale);
    img = img.extract({
      left,
      top,
      width: Math.min(info.width - left, Math.round(W * scale)),
      height: Math.min(info.height - top, Math.round(H * scale)),
    });
  }
  return img.resize(W, H, { fit: "fill", kernel: "cubic" }).raw().toBuffer();
}

/* ------------------------------------------------------------------ palettes */

const PALETTES = {
  navyTeal: {
    dark: true,
    bg: ["#051325", "#0f2a4a", "#0b5d63"],
    glow: ["#0b7a75", "#1f9e96", "#2b5f8f"],
    light: ["#8fe3da", "#cfeffd", "#f6c47e"],
    line: "#86e0d6",
    accent: "#f2b66d",
  },
  midnight: {
    dark: true,
    bg: ["#040a1b", "#0d1f44", "#1c4679"],
    glow: ["#2f6fb0", "#3aa0bf", "#1b3c73"],
    light: ["#a9d4ff", "#78c8e0", "#ffc38a"],
    line: "#9cd0ff",
    accent: "#ffaf73",
  },
  indigo: {
    dark: true,
    bg: ["#090e24", "#1b2452", "#34468a"],
    glow: ["#5b6fd0", "#2aa9a0", "#3b3f9a"],
    light: ["#b8c4ff", "#7fe0cf", "#ffd28a"],
    line: "#b0bdff",
    accent: "#ffcb7d",
  },
  deepSea: {
    dark: true,
    bg: ["#02141a", "#06303a", "#0d5e69"],
    glow: ["#17a2a6", "#3cc2b8", "#0c4d6b"],
    light: ["#a0f0e6", "#d4fff8", "#f9c88b"],
    line: "#7ae6da",
    accent: "#f0a860",
  },
  petrol: {
    dark: true,
    bg: ["#0a151d", "#15303d", "#2a5d66"],
    glow: ["#3c9a94", "#5fb8ad", "#24506b"],
    light: ["#c6efe9", "#95d9cf", "#ffbe8c"],
    line: "#a6e6dc",
    accent: "#ef9a62",
  },
  plum: {
    dark: true,
    bg: ["#0c0e24", "#221f47", "#3f3569"],
    glow: ["#6a4fa0", "#2c8f9a", "#8a4a7a"],
    light: ["#ffd3a0", "#c9b8ff", "#9fd8ff"],
    line: "#d6c8ff",
    accent: "#ffb070",
  },
  tealMist: {
    dark: false,
    bg: ["#f4f9f9", "#d5ecea", "#94cbc6"],
    glow: ["#ffffff", "#bde5e0", "#f8d3a6"],
    light: ["#ffffff", "#e6f7f5", "#ffe2bf"],
    line: "#0b6f6a",
    accent: "#e9a661",
  },
  skyClinic: {
    dark: false,
    bg: ["#f4f8fc", "#d8e7f3", "#9fc1de"],
    glow: ["#ffffff", "#cfe2f2", "#ffd9b0"],
    light: ["#ffffff", "#eaf4ff", "#ffe8cc"],
    line: "#1d4f7a",
    accent: "#f0a35e",
  },
  sand: {
    dark: false,
    bg: ["#fbf6ef", "#efe2cf", "#bfcfc6"],
    glow: ["#fffaf2", "#f6d9b4", "#a8d5cf"],
    light: ["#ffffff", "#fff1dd", "#d8f0ec"],
    line: "#0f3a55",
    accent: "#d98b43",
  },
};
const DARK_PALETTES = Object.keys(PALETTES).filter((k) => PALETTES[k].dark);
const LIGHT_PALETTES = Object.keys(PALETTES).filter((k) => !PALETTES[k].dark);

/* ------------------------------------------------------------------ scene: background + bokeh */

function background(ctx) {
  const { R, W, H, pal, L } = ctx;
  const a = R.range(0, Math.PI * 2);
  const cx = W / 2;
  const cy = H / 2;
  const rad = Math.hypot(W, H) / 2;
  const id = L.base.uid();
  L.base.def(
    `<linearGradient id="${id}" gradientUnits="userSpaceOnUse" x1="${n(cx - Math.cos(a) * rad)}" y1="${n(cy - Math.sin(a) * rad)}" x2="${n(cx + Math.cos(a) * rad)}" y2="${n(cy + Math.sin(a) * rad)}">` +
      `<stop offset="0" stop-color="${pal.bg[0]}"/><stop offset="${n(R.range(0.35, 0.55) * 100) / 100}" stop-color="${pal.bg[1]}"/>` +
      `<stop offset="1" stop-color="${pal.bg[2]}"/></linearGradient>`,
  );
  L.base.add(`<rect width="${W}" height="${H}" fill="url(#${id})"/>`);
  // large soft light pools
  const pools = R.int(3, 5);
  for (let i = 0; i < pools; i++) {
    const g = L.base.glowGrad(i === pools - 1 ? pal.accent : R.pick(pal.glow), 1, 0.4);
    const near = i < 2;
    const x = near ? ctx.fx + R.gauss() * W * 0.12 : R.range(0, W);
    const y = near ? ctx.fy + R.gauss() * H * 0.15 : R.range(0, H);
    const rx = R.range(0.25, 0.55) * W * (i === pools - 1 ? 0.5 : 1);
    const ry = rx * R.range(0.45, 0.9);
    const op = i === pools - 1 ? R.range(0.12, 0.25) : R.range(0.3, 0.6);
    L.base.add(
      `<ellipse cx="${n(x)}" cy="${n(y)}" rx="${n(rx)}" ry="${n(ry)}" fill="url(#${g})" opacity="${n(op * 100) / 100}"/>`,
    );
  }
  // key light behind the motif
  if (pal.dark) {
    const k = L.base.glowGrad(mix(pal.glow[1], "#ffffff", 0.25), 1, 0.3);
    const kr = R.range(0.22, 0.35) * W;
    L.base.add(
      `<ellipse cx="${n(ctx.fx + R.gauss() * W * 0.05)}" cy="${n(ctx.fy + R.gauss() * H * 0.1)}" rx="${n(kr)}" ry="${n(kr * R.range(0.5, 0.8))}" fill="url(#${k})" opacity="${n(R.range(0.3, 0.45) * 100) / 100}"/>`,
    );
  }
  // low-frequency haze texture (turbulence), in the far layer so it is soft
  const hid = L.haze.uid();
  const bf = (R.range(1.2, 2.4) / Math.max(W, H)).toFixed(5);
  L.haze.def(
    `<filter id="${hid}" filterUnits="userSpaceOnUse" x="0" y="0" width="${W}" height="${H}">` +
      `<feTurbulence type="fractalNoise" baseFrequency="${bf}" numOctaves="4" seed="${R.int(1, 9999)}"/>` +
      `<feColorMatrix type="matrix" values="0 0 0 0 ${pal.dark ? 1 : 0.05} 0 0 0 0 ${pal.dark ? 1 : 0.15} 0 0 0 0 ${pal.dark ? 1 : 0.25} 1.6 0 0 0 -0.75"/>` +
      `</filter>`,
  );
  L.haze.add(`<rect width="${W}" height="${H}" filter="url(#${hid})" opacity="${pal.dark ? 0.16 : 0.1}"/>`);
}

function bokeh(
  ctx,
  { count = 30, min = 10, max = 70, layer = "near", colors, opacity = [0.08, 0.35], spread = 0.3, hex = 0.3 } = {},
) {
  const { R, W, H, pal, u } = ctx;
  const Ly = ctx.L[layer];
  const cols = colors || pal.light;
  const grads = cols.map((c) => Ly.bokehGrad(c));
  for (let i = 0; i < count; i++) {
    const clustered = R.chance(0.65);
    const x = clustered ? ctx.fx + R.gauss() * W * spread : R.range(-0.05, 1.05) * W;
    const y = clustered ? ctx.fy + R.gauss() * H * spread * 1.2 : R.range(-0.05, 1.05) * H;
    const r = (min + (max - min) * Math.pow(R.f(), 2.2)) * u;
    const gi = R.int(0, grads.length - 1);
    const op = R.range(opacity[0], opacity[1]);
    if (R.chance(hex)) {
      const sides = R.pick([6, 7, 8]);
      Ly.add(
        `<polygon points="${polyPoints(x, y, r, sides, R.range(0, 1))}" fill="url(#${grads[gi]})" opacity="${n(op * 100) / 100}"/>`,
      );
    } else {
      Ly.add(
        `<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="url(#${grads[gi]})" opacity="${n(op * 100) / 100}"/>`,
      );
    }
  }
}

/** Tiny sharp specks of light (dust / distant lights). */
function specks(ctx, count, layer = "mid", colors) {
  const { R, W, H, pal, u } = ctx;
  const Ly = ctx.L[layer];
  const cols = colors || pal.light;
  for (let i = 0; i < count; i++) {
    const x = R.chance(0.6) ? ctx.fx + R.gauss() * W * 0.25 : R.range(0, W);
    const y = R.chance(0.6) ? ctx.fy + R.gauss() * H * 0.3 : R.range(0, H);
    Ly.add(
      `<circle cx="${n(x)}" cy="${n(y)}" r="${n(R.range(0.8, 2.6) * u)}" fill="${R.pick(cols)}" opacity="${n(R.range(0.2, 0.8) * 100) / 100}"/>`,
    );
  }
}

/* ------------------------------------------------------------------ motifs */

const MOTIFS = {};

/** Molecular network: jittered triangular lattice, fused hexagon rings, ball-and-stick atoms. */
MOTIFS.network = (ctx, opts = {}) => {
  const { R, W, H, pal, u, L } = ctx;
  const draw = (Ly, spacing, reach, lineOp, nodeScale, cx, cy, soft = false) => {
    const a = spacing;
    const lineCol = soft && !pal.dark ? mix(pal.line, pal.bg[1], 0.65) : pal.line;
    const pts = [];
    const rows = Math.ceil(H / (a * 0.866)) + 4;
    const cols = Math.ceil(W / a) + 4;
    for (let r = -2; r < rows; r++) {
      for (let c = -2; c < cols; c++) {
        const x = c * a + (r % 2 ? a / 2 : 0) + R.gauss() * a * 0.12;
        const y = r * a * 0.866 + R.gauss() * a * 0.12;
        const d = Math.hypot((x - cx) / W, (y - cy) / H);
        const keep = Math.exp(-Math.pow(d / reach, 2));
        if (R.f() < keep * 0.92) pts.push({ x, y, w: keep });
      }
    }
    const grad = Ly.glowGrad(pal.light[0], 0.9, 0.25);
    const lines = [];
    for (let i = 0; i < pts.length; i++) {
      for (let j = i + 1; j < pts.length; j++) {
        const dx = pts[j].x - pts[i].x;
        const dy = pts[j].y - pts[i].y;
        if (Math.abs(dx) > a * 1.3 || Math.abs(dy) > a * 1.3) continue;
        const d = Math.hypot(dx, dy);
        if (d < a * 1.3 && R.chance(0.55)) {
          const w = Math.min(pts[i].w, pts[j].w);
          lines.push(
            `<line x1="${n(pts[i].x)}" y1="${n(pts[i].y)}" x2="${n(pts[j].x)}" y2="${n(pts[j].y)}" stroke-opacity="${n(lineOp * (0.25 + 0.75 * w) * 100) / 100}"/>`,
          );
        }
      }
    }
    Ly.add(
      `<g stroke="${lineCol}" stroke-width="${n(1.6 * u * nodeScale)}" stroke-linecap="round" opacity="${soft && !pal.dark ? 0.45 : 1}">${lines.join("")}</g>`,
    );
    for (const p of pts) {
      const r = R.range(2, 6) * u * nodeScale * (0.5 + p.w);
      const col = R.chance(0.12) ? pal.accent : R.pick(pal.light);
      if (R.chance(0.18 * p.w)) {
        Ly.add(
          `<circle cx="${n(p.x)}" cy="${n(p.y)}" r="${n(r * 5)}" fill="url(#${grad})" opacity="${n(0.35 * p.w * 100) / 100}"/>`,
        );
      }
      Ly.add(
        `<circle cx="${n(p.x)}" cy="${n(p.y)}" r="${n(r)}" fill="${col}" opacity="${n((0.35 + 0.6 * p.w) * 100) / 100}"/>`,
      );
    }
    // fused hexagon rings near the focus
    const rings = soft && !pal.dark ? 0 : R.int(2, 5);
    let hx = cx + R.gauss() * W * 0.05;
    let hy = cy + R.gauss() * H * 0.08;
    const side = a * R.range(0.7, 1.0);
    for (let i = 0; i < rings; i++) {
      Ly.add(
        `<polygon points="${polyPoints(hx, hy, side, 6, Math.PI / 6)}" fill="none" stroke="${i % 2 ? lineCol : pal.accent}" stroke-width="${n(2.4 * u * nodeScale)}" stroke-opacity="0.8" stroke-linejoin="round"/>`,
      );
      Ly.add(
        `<polygon points="${polyPoints(hx, hy, side * 0.62, 6, Math.PI / 6)}" fill="none" stroke="${lineCol}" stroke-width="${n(1.2 * u * nodeScale)}" stroke-opacity="0.45"/>`,
      );
      for (let k = 0; k < 6; k++) {
        const ang = Math.PI / 6 + (k / 6) * Math.PI * 2;
        Ly.add(
          `<circle cx="${n(hx + side * Math.cos(ang))}" cy="${n(hy + side * Math.sin(ang))}" r="${n(5 * u * nodeScale)}" fill="${pal.light[k % pal.light.length]}" opacity="0.9"/>`,
        );
      }
      const dir = R.int(0, 5);
      const ang = (dir / 6) * Math.PI * 2;
      hx += Math.cos(ang) * side * 1.732;
      hy += Math.sin(ang) * side * 1.732;
    }
  };
  draw(
    L.mid,
    R.range(75, 115) * u,
    opts.reach ?? R.range(0.28, 0.42),
    pal.dark ? 0.55 : 0.4,
    pal.dark ? 1 : 0.8,
    ctx.fx,
    ctx.fy,
  );
  draw(L.far, R.range(160, 240) * u, 0.6, 0.5, 2.4, ctx.fx + R.gauss() * W * 0.2, ctx.fy + R.gauss() * H * 0.2, true);
};

/** Double helix in 3-D-ish perspective, with rungs and depth-varying atoms. */
MOTIFS.helix = (ctx, opts = {}) => {
  const { R, W, H, pal, u, L } = ctx;
  const draw = (Ly, amp, lambda, cy, tilt, width, op, cols) => {
    const k = (Math.PI * 2) / lambda;
    const phi = R.range(0, Math.PI * 2);
    const step = lambda / 60;
    const x0 = -W * 0.3;
    const x1 = W * 1.3;
    const segs = [];
    const nodes = [];
    for (let x = x0; x < x1; x += step) {
      for (let s = 0; s < 2; s++) {
        const ph = phi + s * Math.PI;
        const ya = cy + amp * Math.sin(k * x + ph);
        const yb = cy + amp * Math.sin(k * (x + step) + ph);
        const z = Math.cos(k * x + ph);
        const o = op * (0.35 + (0.65 * (z + 1)) / 2);
        segs.push(
          `<line x1="${n(x)}" y1="${n(ya)}" x2="${n(x + step + 0.5)}" y2="${n(yb)}" stroke="${cols[s]}" stroke-opacity="${n(o * 100) / 100}" stroke-width="${n(width * (0.7 + (0.5 * (z + 1)) / 2))}"/>`,
        );
      }
    }
    const rungStep = lambda / 10;
    for (let x = x0; x < x1; x += rungStep) {
      const ya = cy + amp * Math.sin(k * x + phi);
      const yb = cy + amp * Math.sin(k * x + phi + Math.PI);
      const depth = Math.abs(Math.sin(k * x + phi));
      segs.push(
        `<line x1="${n(x)}" y1="${n(ya)}" x2="${n(x)}" y2="${n(yb)}" stroke="${pal.light[1] || pal.light[0]}" stroke-opacity="${n(op * 0.45 * (0.3 + 0.7 * depth) * 100) / 100}" stroke-width="${n(width * 0.6)}"/>`,
      );
      for (let s = 0; s < 2; s++) {
        const z = Math.cos(k * x + phi + s * Math.PI);
        const y = s ? yb : ya;
        nodes.push(
          `<circle cx="${n(x)}" cy="${n(y)}" r="${n(width * (1.2 + 1.3 * (z + 1)))}" fill="${s ? pal.accent : pal.light[0]}" opacity="${n(op * (0.4 + (0.6 * (z + 1)) / 2) * 100) / 100}"/>`,
        );
      }
    }
    Ly.add(
      `<g transform="rotate(${n(tilt)} ${n(W / 2)} ${n(cy)})" stroke-linecap="round">${segs.join("")}${nodes.join("")}</g>`,
    );
  };
  const tilt = opts.tilt ?? R.range(-18, 18);
  draw(L.mid, R.range(70, 120) * u, R.range(420, 640) * u, ctx.fy, tilt, 2.6 * u, 0.85, [pal.line, pal.light[0]]);
  draw(
    L.far,
    R.range(150, 260) * u,
    R.range(900, 1300) * u,
    R.range(0.25, 0.75) * H,
    tilt + R.range(-25, 25),
    9 * u,
    0.45,
    [pal.light[1] || pal.line, pal.line],
  );
};

/** Fine graph-paper grid fading out from the focus, plus optional smooth chart lines. */
MOTIFS.grid = (ctx, opts = {}) => {
  const { R, W, H, pal, u, L } = ctx;
  const g = R.pick([36, 44, 52]) * u;
  const mid = L.mid.uid();
  L.mid.def(
    `<radialGradient id="${mid}g" gradientUnits="userSpaceOnUse" cx="${n(ctx.fx)}" cy="${n(ctx.fy)}" r="${n(W * R.range(0.45, 0.7))}">` +
      `<stop offset="0" stop-color="#fff" stop-opacity="1"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>` +
      `<mask id="${mid}" maskUnits="userSpaceOnUse" x="0" y="0" width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="url(#${mid}g)"/></mask>`,
  );
  const lines = [];
  const ox = R.range(0, g);
  const oy = R.range(0, g);
  let i = 0;
  for (let x = ox; x < W; x += g, i++)
    lines.push(`<line x1="${n(x)}" y1="0" x2="${n(x)}" y2="${H}" stroke-opacity="${i % 4 === 0 ? 0.38 : 0.16}"/>`);
  i = 0;
  for (let y = oy; y < H; y += g, i++)
    lines.push(`<line x1="0" y1="${n(y)}" x2="${W}" y2="${n(y)}" stroke-opacity="${i % 4 === 0 ? 0.38 : 0.16}"/>`);
  L.mid.add(
    `<g mask="url(#${mid})" opacity="${pal.dark ? 1 : 0.6}" stroke="${pal.line}" stroke-width="${n(Math.max(1.2, 1.4 * u))}">${lines.join("")}</g>`,
  );
  if (!opts.chart) return;
  const curves = R.int(2, 3);
  for (let c = 0; c < curves; c++) {
    const pts = [];
    let y = ctx.fy + R.range(-0.1, 0.15) * H;
    const steps = R.int(9, 14);
    for (let s = 0; s <= steps; s++) {
      pts.push([-W * 0.05 + (s / steps) * W * 1.1, y]);
      y += R.gauss() * H * 0.07 - H * 0.012 * (c === 0 ? 1 : 0);
      y = Math.max(H * 0.15, Math.min(H * 0.85, y));
    }
    const d = smoothPath(pts);
    const col = c === 0 ? pal.accent : c === 1 ? pal.line : pal.light[1] || pal.line;
    if (c === 0) {
      const aid = L.mid.uid();
      L.mid.def(
        `<linearGradient id="${aid}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${col}" stop-opacity="${pal.dark ? 0.2 : 0.14}"/><stop offset="0.7" stop-color="${col}" stop-opacity="0"/></linearGradient>`,
      );
      L.mid.add(`<path d="${d}L${n(W * 1.05)},${H}L${n(-W * 0.05)},${H}Z" fill="url(#${aid})"/>`);
    }
    L.mid.add(
      `<path d="${d}" fill="none" stroke="${col}" stroke-width="${n((c === 0 ? 3 : 2) * u)}" stroke-opacity="${c === 0 ? 0.9 : 0.55}" stroke-linejoin="round"/>`,
    );
    if (c === 0) {
      for (let s = 1; s < pts.length - 1; s++) {
        if (!R.chance(0.6)) continue;
        const [px, py] = pts[s];
        L.mid.add(
          `<line x1="${n(px)}" y1="${n(py)}" x2="${n(px)}" y2="${H}" stroke="${col}" stroke-opacity="0.18" stroke-width="${n(1.2 * u)}" stroke-dasharray="${n(4 * u)} ${n(6 * u)}"/>`,
        );
        L.mid.add(
          `<circle cx="${n(px)}" cy="${n(py)}" r="${n(10 * u)}" fill="${col}" opacity="0.18"/><circle cx="${n(px)}" cy="${n(py)}" r="${n(4.5 * u)}" fill="${pal.light[0]}"/>`,
        );
      }
    }
  }
  // translucent bars rising from the bottom
  const bars = R.int(12, 20);
  const bw = (W / bars) * 0.26;
  const bg = L.mid.uid();
  L.mid.def(
    `<linearGradient id="${bg}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${pal.light[0]}" stop-opacity="0.5"/><stop offset="1" stop-color="${pal.light[0]}" stop-opacity="0"/></linearGradient>`,
  );
  let level = R.range(0.15, 0.3);
  for (let b = 0; b < bars; b++) {
    level = Math.max(0.08, Math.min(0.55, level + R.gauss() * 0.06 + 0.01));
    const bh = level * H;
    L.mid.add(
      `<rect x="${n(b * (W / bars) + bw * 0.8)}" y="${n(H - bh)}" width="${n(bw)}" height="${n(bh)}" rx="${n(4 * u)}" fill="url(#${bg})" opacity="${n(R.range(0.18, 0.38) * 100) / 100}"/>`,
    );
    L.mid.add(
      `<rect x="${n(b * (W / bars) + bw * 0.8)}" y="${n(H - bh)}" width="${n(bw)}" height="${n(2 * u)}" fill="${pal.light[0]}" opacity="0.35"/>`,
    );
  }
};

/** Flowing ribbons of sine lines; optionally an ECG-like monitor trace. */
MOTIFS.waves = (ctx, opts = {}) => {
  const { R, W, H, pal, u, L } = ctx;
  const count = R.int(18, 30);
  const base = ctx.fy + R.range(-0.1, 0.1) * H;
  const comps = Array.from({ length: 3 }, () => ({
    a: R.range(0.04, 0.12) * H,
    k: (R.range(0.6, 2.2) * Math.PI * 2) / W,
    p: R.range(0, 6.28),
    dp: R.range(0.03, 0.09),
  }));
  const gid = L.mid.uid();
  L.mid.def(
    `<linearGradient id="${gid}" gradientUnits="userSpaceOnUse" x1="0" y1="0" x2="${W}" y2="0"><stop offset="0" stop-color="${pal.line}"/><stop offset="0.5" stop-color="${pal.light[0]}"/><stop offset="1" stop-color="${pal.accent}"/></linearGradient>`,
  );
  for (let i = 0; i < count; i++) {
    const pts = [];
    for (let x = -W * 0.05; x <= W * 1.05; x += W / 40) {
      let y = base + (i - count / 2) * 3.2 * u;
      for (const c of comps) y += c.a * Math.sin(c.k * x + c.p + i * c.dp);
      pts.push([x, y]);
    }
    const edge = 1 - Math.abs(i - count / 2) / (count / 2);
    L.mid.add(
      `<path d="${smoothPath(pts)}" fill="none" stroke="url(#${gid})" stroke-width="${n(1.3 * u)}" stroke-opacity="${n((0.12 + (pal.dark ? 0.45 : 0.6) * edge) * 100) / 100}"/>`,
    );
  }
  // a second, broad and blurred band in the far layer
  for (let i = 0; i < 4; i++) {
    const pts = [];
    const by = R.range(0.2, 0.8) * H;
    const c = { a: R.range(0.05, 0.15) * H, k: (R.range(0.5, 1.5) * Math.PI * 2) / W, p: R.range(0, 6.28) };
    for (let x = -W * 0.1; x <= W * 1.1; x += W / 20) pts.push([x, by + c.a * Math.sin(c.k * x + c.p)]);
    L.far.add(
      `<path d="${smoothPath(pts)}" fill="none" stroke="${R.pick(pal.light)}" stroke-width="${n(R.range(20, 60) * u)}" stroke-opacity="${n(R.range(0.08, 0.2) * 100) / 100}"/>`,
    );
  }
  if (opts.ecg) {
    const y0 = ctx.fy + R.range(-0.05, 0.12) * H;
    const period = R.range(300, 420) * u;
    const amp = R.range(110, 160) * u;
    const pts = [];
    let x = -20;
    let beat = R.range(0, period);
    pts.push([x, y0]);
    while (x < W + 40) {
      const xb = x + beat;
      pts.push(
        [xb - 90 * u, y0],
        [xb - 70 * u, y0 - amp * 0.12],
        [xb - 50 * u, y0],
        [xb - 20 * u, y0],
        [xb - 10 * u, y0 + amp * 0.18],
        [xb, y0 - amp],
        [xb + 12 * u, y0 + amp * 0.35],
        [xb + 24 * u, y0],
        [xb + 70 * u, y0],
        [xb + 100 * u, y0 - amp * 0.2],
        [xb + 130 * u, y0],
      );
      x = xb + 130 * u;
      beat = period - 130 * u + R.range(-20, 20) * u;
    }
    const eid = L.mid.uid();
    L.mid.def(
      `<linearGradient id="${eid}" gradientUnits="userSpaceOnUse" x1="0" y1="0" x2="${W}" y2="0"><stop offset="0" stop-color="${pal.light[0]}" stop-opacity="0.05"/><stop offset="0.75" stop-color="${pal.light[0]}" stop-opacity="0.95"/><stop offset="1" stop-color="${pal.accent}" stop-opacity="1"/></linearGradient>`,
    );
    const d = "M" + pts.map(([a, b]) => `${n(a)},${n(b)}`).join("L");
    L.mid.add(
      `<path d="${d}" fill="none" stroke="url(#${eid})" stroke-width="${n(3.2 * u)}" stroke-linejoin="round" stroke-linecap="round"/>`,
    );
    L.far.add(
      `<path d="${d}" fill="none" stroke="${pal.light[0]}" stroke-width="${n(16 * u)}" stroke-opacity="0.35" stroke-linejoin="round"/>`,
    );
  }
};

/** Shield outlines nested around the focus on a faint honeycomb. */
MOTIFS.shield = (ctx) => {
  const { R, W, H, pal, u, L } = ctx;
  const S = R.range(260, 340) * u;
  const cx = ctx.fx;
  const cy = ctx.fy;
  const shield = (s) => {
    const w = s * 0.82;
    const top = cy - s * 0.95;
    return (
      `M${n(cx)},${n(top)} C${n(cx + w * 0.35)},${n(top + s * 0.18)} ${n(cx + w * 0.75)},${n(top + s * 0.2)} ${n(cx + w)},${n(top + s * 0.18)}` +
      ` C${n(cx + w)},${n(top + s * 1.1)} ${n(cx + w * 0.45)},${n(top + s * 1.65)} ${n(cx)},${n(top + s * 1.95)}` +
      ` C${n(cx - w * 0.45)},${n(top + s * 1.65)} ${n(cx - w)},${n(top + s * 1.1)} ${n(cx - w)},${n(top + s * 0.18)}` +
      ` C${n(cx - w * 0.75)},${n(top + s * 0.2)} ${n(cx - w * 0.35)},${n(top + s * 0.18)} ${n(cx)},${n(top)}Z`
    );
  };
  const fid = L.mid.uid();
  L.mid.def(
    `<linearGradient id="${fid}" x1="0" y1="0" x2="0.3" y2="1"><stop offset="0" stop-color="${pal.light[0]}" stop-opacity="0.22"/><stop offset="1" stop-color="${pal.line}" stop-opacity="0.02"/></linearGradient>`,
  );
  const nest = R.int(4, 6);
  for (let i = 0; i < nest; i++) {
    const s = S * (1 - i * 0.16);
    L.mid.add(
      `<path d="${shield(s)}" fill="${i === 0 ? `url(#${fid})` : "none"}" stroke="${i === 1 ? pal.accent : pal.line}" stroke-width="${n((i === 0 ? 3 : 1.6) * u)}" stroke-opacity="${n((0.85 - i * 0.12) * 100) / 100}"/>`,
    );
  }
  // honeycomb around it
  const a = R.range(34, 50) * u;
  const cells = [];
  for (let r = -1; r < H / (a * 1.5) + 1; r++) {
    for (let c = -1; c < W / (a * 1.732) + 1; c++) {
      const x = c * a * 1.732 + (r % 2 ? a * 0.866 : 0);
      const y = r * a * 1.5;
      const d = Math.hypot((x - cx) / W, (y - cy) / H);
      const o = 0.22 * Math.exp(-Math.pow(d / 0.35, 2));
      if (o < 0.02 || R.chance(0.25)) continue;
      cells.push(
        `<polygon points="${polyPoints(x, y, a * 0.92, 6, Math.PI / 6)}" stroke-opacity="${n(o * 100) / 100}"/>`,
      );
    }
  }
  L.mid.add(`<g fill="none" stroke="${pal.line}" stroke-width="${n(1.2 * u)}">${cells.join("")}</g>`);
  const g = L.far.glowGrad(pal.light[0], 0.8, 0.25);
  L.far.add(
    `<ellipse cx="${n(cx)}" cy="${n(cy)}" rx="${n(S * 1.6)}" ry="${n(S * 1.6)}" fill="url(#${g})" opacity="0.35"/>`,
  );
};

/** Circuit traces leaving a chip-like square. */
MOTIFS.circuit = (ctx) => {
  const { R, pal, u, L } = ctx;
  const c = R.pick([22, 26, 30]) * u;
  const cx = ctx.fx;
  const cy = ctx.fy;
  const half = R.range(70, 110) * u;
  L.mid.add(
    `<rect x="${n(cx - half)}" y="${n(cy - half)}" width="${n(half * 2)}" height="${n(half * 2)}" rx="${n(14 * u)}" fill="${pal.line}" fill-opacity="0.08" stroke="${pal.line}" stroke-width="${n(2.5 * u)}" stroke-opacity="0.8"/>`,
  );
  L.mid.add(
    `<rect x="${n(cx - half * 0.55)}" y="${n(cy - half * 0.55)}" width="${n(half * 1.1)}" height="${n(half * 1.1)}" rx="${n(8 * u)}" fill="${pal.accent}" fill-opacity="0.18" stroke="${pal.accent}" stroke-width="${n(2 * u)}" stroke-opacity="0.8"/>`,
  );
  const traces = R.int(50, 80);
  const paths = [];
  const pads = [];
  for (let t = 0; t < traces; t++) {
    const side = R.int(0, 3);
    const along = R.range(-0.85, 0.85) * half;
    let x = side === 0 ? cx + half : side === 2 ? cx - half : cx + along;
    let y = side === 1 ? cy + half : side === 3 ? cy - half : cy + along;
    let dir = side;
    let d = `M${n(x)},${n(y)}`;
    const segs = R.int(2, 5);
    for (let s = 0; s < segs; s++) {
      const len = R.int(2, 12) * c;
      const diag = s > 0 && R.chance(0.35);
      const ang = (dir * Math.PI) / 2 + (diag ? R.sign() * (Math.PI / 4) : 0);
      x += Math.cos(ang) * len;
      y += Math.sin(ang) * len;
      d += `L${n(x)},${n(y)}`;
    }
    const o = R.range(0.25, 0.75);
    const col = R.chance(0.15) ? pal.accent : pal.line;
    paths.push(`<path d="${d}" stroke="${col}" stroke-opacity="${n(o * 100) / 100}"/>`);
    pads.push(
      `<circle cx="${n(x)}" cy="${n(y)}" r="${n(4 * u)}" stroke="${col}" fill="${pal.bg[0]}" stroke-opacity="${n(o * 100) / 100}"/>`,
    );
  }
  L.mid.add(
    `<g fill="none" stroke-width="${n(1.8 * u)}" stroke-linejoin="round">${paths.join("")}</g><g stroke-width="${n(1.8 * u)}">${pads.join("")}</g>`,
  );
  // blurred echo of traces in the far layer
  L.far.add(
    `<g fill="none" stroke="${pal.light[0]}" stroke-width="${n(7 * u)}" stroke-opacity="0.25">${paths
      .slice(0, 30)
      .map((p) => p.replace(/stroke="[^"]*"/, ""))
      .join("")}</g>`,
  );
};

/** Concentric orbits and arcs; optionally three overlapping circles. */
MOTIFS.rings = (ctx, opts = {}) => {
  const { R, pal, u, L } = ctx;
  const cx = ctx.fx;
  const cy = ctx.fy;
  let r = R.range(60, 90) * u;
  const count = R.int(6, 9);
  for (let i = 0; i < count; i++) {
    const circ = 2 * Math.PI * r;
    const style = R.int(0, 2);
    const dash =
      style === 0
        ? ""
        : style === 1
          ? ` stroke-dasharray="${n(R.range(2, 6) * u)} ${n(R.range(6, 14) * u)}"`
          : ` stroke-dasharray="${n(circ * R.range(0.2, 0.6))} ${n(circ)}"`;
    L.mid.add(
      `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}" fill="none" stroke="${i % 3 === 2 ? pal.accent : pal.line}" stroke-width="${n((style === 2 ? 3 : 1.4) * u)}" stroke-opacity="${n(R.range(0.25, 0.7) * 100) / 100}" transform="rotate(${n(R.range(0, 360))} ${n(cx)} ${n(cy)})"${dash}/>`,
    );
    const dots = R.int(0, 2);
    for (let k = 0; k < dots; k++) {
      const a = R.range(0, Math.PI * 2);
      L.mid.add(
        `<circle cx="${n(cx + r * Math.cos(a))}" cy="${n(cy + r * Math.sin(a))}" r="${n(R.range(4, 8) * u)}" fill="${R.pick(pal.light)}" opacity="0.9"/>`,
      );
    }
    r *= R.range(1.22, 1.4);
  }
  if (opts.venn) {
    const rr = R.range(110, 150) * u;
    const g = L.mid.glowGrad(pal.light[0], 0.05, 0.1);
    for (let i = 0; i < 3; i++) {
      const a = -Math.PI / 2 + (i / 3) * Math.PI * 2;
      const x = cx + Math.cos(a) * rr * 0.6;
      const y = cy + Math.sin(a) * rr * 0.6;
      L.mid.add(
        `<circle cx="${n(x)}" cy="${n(y)}" r="${n(rr)}" fill="${[pal.line, pal.accent, pal.light[0]][i]}" fill-opacity="0.1" stroke="${[pal.line, pal.accent, pal.light[0]][i]}" stroke-opacity="0.7" stroke-width="${n(2.2 * u)}"/>`,
      );
    }
    L.mid.add(`<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(rr * 0.5)}" fill="url(#${g})"/>`);
  }
  const g2 = L.far.glowGrad(pal.light[0], 0.7, 0.2);
  L.far.add(`<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(R.range(220, 320) * u)}" fill="url(#${g2})" opacity="0.4"/>`);
};

/** Cells under a microscope: translucent membranes with nuclei at several depths. */
MOTIFS.cells = (ctx) => {
  const { R, W, H, pal, u, L } = ctx;
  const draw = (Ly, count, rmin, rmax, opMul) => {
    const memb = Ly.uid();
    const rim = pal.dark ? pal.line : mix(pal.line, pal.bg[2], 0.45);
    const rimOp = pal.dark ? 0.55 : 0.3;
    Ly.def(
      `<radialGradient id="${memb}"><stop offset="0" stop-color="${pal.light[0]}" stop-opacity="0.06"/><stop offset="0.75" stop-color="${pal.light[0]}" stop-opacity="0.14"/><stop offset="0.93" stop-color="${rim}" stop-opacity="${rimOp}"/><stop offset="1" stop-color="${rim}" stop-opacity="0"/></radialGradient>`,
    );
    const nuc = Ly.glowGrad(pal.accent, 0.7, 0.35);
    for (let i = 0; i < count; i++) {
      const x = R.chance(0.7) ? ctx.fx + R.gauss() * W * 0.18 : R.range(0, W);
      const y = R.chance(0.7) ? ctx.fy + R.gauss() * H * 0.25 : R.range(0, H);
      const r = (rmin + (rmax - rmin) * Math.pow(R.f(), 1.8)) * u;
      const sq = R.range(0.8, 1);
      const rot = R.range(0, 180);
      Ly.add(
        `<g transform="rotate(${n(rot)} ${n(x)} ${n(y)})" opacity="${n(opMul * R.range(0.5, 1) * 100) / 100}"><ellipse cx="${n(x)}" cy="${n(y)}" rx="${n(r)}" ry="${n(r * sq)}" fill="url(#${memb})"/><ellipse cx="${n(x + r * R.range(-0.2, 0.2))}" cy="${n(y + r * R.range(-0.2, 0.2))}" rx="${n(r * 0.32)}" ry="${n(r * 0.28)}" fill="url(#${nuc})"/></g>`,
      );
    }
  };
  draw(L.mid, R.int(14, 24), 25, 80, 1);
  draw(L.far, R.int(8, 14), 80, 200, 0.8);
  draw(L.near, R.int(2, 4), 160, 320, 0.5);
};

/** Wire-frame globe with connecting arcs. */
MOTIFS.globe = (ctx) => {
  const { R, H, pal, u, L } = ctx;
  const cx = ctx.fx;
  const cy = ctx.fy;
  const Rg = H * R.range(0.34, 0.44);
  const tilt = R.range(-20, 20);
  const parts = [];
  parts.push(`<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(Rg)}" stroke-opacity="0.6" stroke-width="${n(2.2 * u)}"/>`);
  for (let lat = -60; lat <= 60; lat += 20) {
    const rad = (lat * Math.PI) / 180;
    const rx = Rg * Math.cos(rad);
    parts.push(
      `<ellipse cx="${n(cx)}" cy="${n(cy + Rg * Math.sin(rad))}" rx="${n(rx)}" ry="${n(rx * 0.2)}" stroke-opacity="0.3"/>`,
    );
  }
  for (let lon = 15; lon < 180; lon += 30) {
    const rad = (lon * Math.PI) / 180;
    parts.push(
      `<ellipse cx="${n(cx)}" cy="${n(cy)}" rx="${n(Math.abs(Rg * Math.cos(rad)))}" ry="${n(Rg)}" stroke-opacity="0.28"/>`,
    );
  }
  // dot-matrix sphere: front hemisphere only, dots fade towards the rim
  const spin = R.range(0, Math.PI * 2);
  const dots = [];
  for (let lat = -78; lat <= 78; lat += 6) {
    const la = (lat * Math.PI) / 180;
    const ring = Math.max(1, Math.round(60 * Math.cos(la)));
    for (let j = 0; j < ring; j++) {
      const lo = spin + (j / ring) * Math.PI * 2;
      const z = Math.cos(la) * Math.cos(lo);
      if (z <= 0.05) continue;
      const x = cx + Rg * Math.cos(la) * Math.sin(lo);
      const y = cy + Rg * Math.sin(la);
      dots.push(
        `<circle cx="${n(x)}" cy="${n(y)}" r="${n((0.8 + 1.6 * z) * u)}" opacity="${n((0.2 + 0.6 * z) * 100) / 100}"/>`,
      );
    }
  }
  const pts = [];
  for (let i = 0; i < 14; i++) {
    const la = R.range(-1.1, 1.1);
    const lo = R.range(-1.2, 1.2);
    pts.push([cx + Rg * Math.cos(la) * Math.sin(lo), cy + Rg * Math.sin(la)]);
  }
  const arcs = [];
  for (let i = 0; i < pts.length; i++) {
    for (let j = i + 1; j < pts.length; j++) {
      const [x1, y1] = pts[i];
      const [x2, y2] = pts[j];
      const dx = Math.abs(x2 - x1);
      if (dx < Rg * 0.35 || Math.abs(y2 - y1) > dx * 0.6 || !R.chance(0.35)) continue;
      const d = Math.hypot(x2 - x1, y2 - y1);
      arcs.push(
        `<path d="M${n(x1)},${n(y1)} Q${n((x1 + x2) / 2)},${n((y1 + y2) / 2 - d * 0.3)} ${n(x2)},${n(y2)}" fill="none" stroke="${pal.accent}" stroke-opacity="0.65" stroke-width="${n(1.8 * u)}"/>`,
      );
    }
  }
  arcs.splice(8);
  parts.push(`<g fill="${pal.line}" stroke="none">${dots.join("")}</g>`);
  L.mid.add(
    `<g transform="rotate(${n(tilt)} ${n(cx)} ${n(cy)})"><g fill="none" stroke="${pal.line}" stroke-width="${n(1.3 * u)}">${parts.join("")}</g>${arcs.join("")}${pts.map(([x, y]) => `<circle cx="${n(x)}" cy="${n(y)}" r="${n(5 * u)}" fill="${pal.light[0]}"/>`).join("")}</g>`,
  );
  const g = L.far.glowGrad(pal.line, 0.5, 0.2);
  L.far.add(`<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(Rg * 1.3)}" fill="url(#${g})" opacity="0.45"/>`);
};

/** Rising columns joined by a curve: phases of a programme. */
MOTIFS.steps = (ctx) => {
  const { R, W, H, pal, u, L } = ctx;
  const count = 4;
  const bw = R.range(80, 120) * u;
  const gap = bw * R.range(0.6, 0.9);
  const total = count * bw + (count - 1) * gap;
  const x0 = Math.max(W * 0.05, Math.min(W * 0.95 - total, ctx.fx - total / 2));
  const base = H * R.range(0.82, 0.92);
  const gid = L.mid.uid();
  L.mid.def(
    `<linearGradient id="${gid}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${pal.light[0]}" stop-opacity="0.45"/><stop offset="1" stop-color="${pal.light[0]}" stop-opacity="0"/></linearGradient>`,
  );
  const tops = [];
  for (let i = 0; i < count; i++) {
    const h = H * (0.18 + i * R.range(0.13, 0.16));
    const x = x0 + i * (bw + gap);
    tops.push([x + bw / 2, base - h]);
    L.mid.add(
      `<rect x="${n(x)}" y="${n(base - h)}" width="${n(bw)}" height="${n(h)}" rx="${n(10 * u)}" fill="url(#${gid})" stroke="${pal.line}" stroke-opacity="0.5" stroke-width="${n(1.6 * u)}"/>`,
    );
  }
  const curve = [
    [x0 - gap * 2, tops[0][1] + H * 0.12],
    ...tops,
    [tops[count - 1][0] + gap * 2.5, tops[count - 1][1] - H * 0.08],
  ];
  L.mid.add(
    `<path d="${smoothPath(curve)}" fill="none" stroke="${pal.accent}" stroke-width="${n(3 * u)}" stroke-opacity="0.9"/>`,
  );
  for (const [x, y] of tops)
    L.mid.add(
      `<circle cx="${n(x)}" cy="${n(y)}" r="${n(16 * u)}" fill="${pal.accent}" opacity="0.25"/><circle cx="${n(x)}" cy="${n(y)}" r="${n(6 * u)}" fill="${pal.light[0]}"/>`,
    );
};

/** Staggered horizontal timeline bars with dependency links. */
MOTIFS.bars = (ctx) => {
  const { R, W, pal, u, L } = ctx;
  const rows = R.int(6, 8);
  const rh = R.range(34, 46) * u;
  const gap = rh * 0.7;
  const y0 = ctx.fy - ((rows - 1) * (rh + gap)) / 2;
  let x = ctx.fx - W * R.range(0.2, 0.3);
  const ends = [];
  for (let i = 0; i < rows; i++) {
    const len = R.range(0.12, 0.28) * W;
    const y = y0 + i * (rh + gap);
    const col = i % 3 === 1 ? pal.accent : R.pick([pal.line, pal.light[0]]);
    L.mid.add(
      `<rect x="${n(x)}" y="${n(y)}" width="${n(len)}" height="${n(rh)}" rx="${n(rh / 2)}" fill="${col}" fill-opacity="0.16" stroke="${col}" stroke-opacity="0.7" stroke-width="${n(1.6 * u)}"/>`,
    );
    L.mid.add(
      `<rect x="${n(x)}" y="${n(y)}" width="${n(len * R.range(0.3, 1))}" height="${n(rh)}" rx="${n(rh / 2)}" fill="${col}" fill-opacity="0.35"/>`,
    );
    ends.push([x + len, y + rh / 2]);
    const nx = x + len * R.range(0.45, 0.95);
    if (i < rows - 1) {
      L.mid.add(
        `<path d="M${n(x + len)},${n(y + rh / 2)} h${n(18 * u)} V${n(y + rh + gap + rh / 2)} H${n(nx)}" fill="none" stroke="${pal.light[0]}" stroke-opacity="0.35" stroke-width="${n(1.4 * u)}"/>`,
      );
    }
    x = nx;
  }
  for (const [ex, ey] of ends)
    L.mid.add(`<circle cx="${n(ex)}" cy="${n(ey)}" r="${n(5 * u)}" fill="${pal.light[0]}" opacity="0.9"/>`);
};

/** A fanned stack of translucent sheets (a dossier), with abstract placeholder bars, no text. */
MOTIFS.pages = (ctx) => {
  const { R, pal, u, L } = ctx;
  const pw = R.range(240, 300) * u;
  const ph = pw * 1.35;
  const count = R.int(4, 6);
  const fid = L.mid.uid();
  L.mid.def(
    `<linearGradient id="${fid}" x1="0" y1="0" x2="0.4" y2="1"><stop offset="0" stop-color="${pal.light[0]}" stop-opacity="${pal.dark ? 0.2 : 0.7}"/><stop offset="1" stop-color="${pal.light[0]}" stop-opacity="${pal.dark ? 0.04 : 0.35}"/></linearGradient>`,
  );
  const base = R.range(-14, -6);
  for (let i = 0; i < count; i++) {
    const rot = base + i * R.range(5, 8);
    const x = ctx.fx - pw / 2 + i * 18 * u;
    const y = ctx.fy - ph / 2 - i * 6 * u;
    const top = i === count - 1;
    let inner = "";
    if (top) {
      inner += `<rect x="${n(x + pw * 0.12)}" y="${n(y + ph * 0.1)}" width="${n(pw * 0.4)}" height="${n(10 * u)}" rx="${n(5 * u)}" fill="${pal.accent}" opacity="0.8"/>`;
      for (let k = 0; k < 7; k++) {
        inner += `<rect x="${n(x + pw * 0.12)}" y="${n(y + ph * (0.22 + k * 0.075))}" width="${n(pw * R.range(0.45, 0.76))}" height="${n(5 * u)}" rx="${n(2.5 * u)}" fill="${pal.line}" opacity="0.45"/>`;
      }
      const sx = x + pw * 0.74;
      const sy = y + ph * 0.84;
      inner += `<circle cx="${n(sx)}" cy="${n(sy)}" r="${n(26 * u)}" fill="none" stroke="${pal.accent}" stroke-width="${n(3 * u)}" opacity="0.9"/>`;
      inner += `<path d="M${n(sx - 11 * u)},${n(sy)} l${n(8 * u)},${n(8 * u)} l${n(15 * u)},${n(-16 * u)}" fill="none" stroke="${pal.accent}" stroke-width="${n(3.5 * u)}" stroke-linecap="round" stroke-linejoin="round"/>`;
    }
    L.mid.add(
      `<g transform="rotate(${n(rot)} ${n(x + pw / 2)} ${n(y + ph)})"><rect x="${n(x)}" y="${n(y)}" width="${n(pw)}" height="${n(ph)}" rx="${n(12 * u)}" fill="url(#${fid})" stroke="${pal.line}" stroke-opacity="${top ? 0.8 : 0.35}" stroke-width="${n(1.8 * u)}"/>${inner}</g>`,
    );
  }
  const g = L.far.glowGrad(pal.light[0], 0.7, 0.2);
  L.far.add(
    `<ellipse cx="${n(ctx.fx)}" cy="${n(ctx.fy)}" rx="${n(pw * 1.6)}" ry="${n(ph * 0.9)}" fill="url(#${g})" opacity="0.35"/>`,
  );
};

/** Laboratory ceiling lights receding to a vanishing point (heavily defocused). */
MOTIFS.streaks = (ctx) => {
  const { R, W, H, pal, u, L } = ctx;
  const vx = ctx.fx + R.range(-0.1, 0.1) * W;
  const vy = H * R.range(0.3, 0.45);
  const lanes = [-1.6, -0.55, 0.55, 1.6];
  const g = L.deep.glowGrad("#ffffff", 1, 0.6);
  for (const lane of lanes) {
    for (let k = 1; k <= 7; k++) {
      const d = Math.pow(k, 1.55) * 0.045;
      const x = vx + lane * d * W * 0.55;
      const y = vy - d * H * 0.9;
      const w = d * W * 0.3;
      const h = d * H * 0.07;
      if (y < -h * 2) continue;
      L.deep.add(
        `<ellipse cx="${n(x)}" cy="${n(y)}" rx="${n(w * 0.9 + 30 * u)}" ry="${n(h * 2.6 + 30 * u)}" fill="url(#${g})" opacity="${n(Math.min(1, 0.55 + k * 0.08) * 100) / 100}"/>`,
      );
      L.far.add(
        `<rect x="${n(x - w * 0.45)}" y="${n(y - h * 0.5)}" width="${n(w * 0.9)}" height="${n(h)}" rx="${n(h * 0.5)}" fill="${pal.light[1]}" opacity="0.55"/>`,
      );
    }
  }
  const cone = L.far.glowGrad(pal.light[0], 0.7, 0.25);
  L.far.add(
    `<ellipse cx="${n(vx)}" cy="${n(vy - H * 0.1)}" rx="${n(W * 0.45)}" ry="${n(H * 0.45)}" fill="url(#${cone})" opacity="0.3"/>`,
  );
  // floor reflection
  const rg = L.far.glowGrad(pal.light[0], 0.6, 0.2);
  L.far.add(
    `<ellipse cx="${n(vx)}" cy="${n(H * 0.95)}" rx="${n(W * 0.4)}" ry="${n(H * 0.15)}" fill="url(#${rg})" opacity="0.35"/>`,
  );
};

/* ------------------------------------------------------------------ landscapes (contact regions) */

function sky(ctx, stops) {
  const { W, H, L } = ctx;
  const id = L.base.uid();
  L.base.def(
    `<linearGradient id="${id}" x1="0" y1="0" x2="0" y2="1">${stops.map(([o, c]) => `<stop offset="${o}" stop-color="${c}"/>`).join("")}</linearGradient>`,
  );
  L.base.add(`<rect width="${W}" height="${H}" fill="url(#${id})"/>`);
}

function softBlob(Ly, x, y, rx, ry, color, op, inner = 1, mid = 0.4) {
  const g = Ly.glowGrad(color, inner, mid);
  Ly.add(
    `<ellipse cx="${n(x)}" cy="${n(y)}" rx="${n(rx)}" ry="${n(ry)}" fill="url(#${g})" opacity="${n(op * 100) / 100}"/>`,
  );
}

const LANDSCAPES = {};

LANDSCAPES.coast = (ctx) => {
  const { R, W, H, u, L } = ctx;
  const hy = H * R.range(0.56, 0.64);
  const sx = W * R.range(0.55, 0.75);
  sky(ctx, [
    [0, "#142447"],
    [0.3, "#3d4a7c"],
    [(hy / H) * 0.8, "#c98b8c"],
    [hy / H, "#ffd6a5"],
    [hy / H + 0.001, "#e6b08e"],
    [hy / H + 0.12, "#6a6f98"],
    [1, "#17223f"],
  ]);
  softBlob(L.base, sx, hy, W * 0.55, H * 0.45, "#ffcf96", 0.75);
  softBlob(L.base, sx, hy, W * 0.18, H * 0.16, "#fff0d2", 0.9);
  L.mid.add(`<circle cx="${n(sx)}" cy="${n(hy - 26 * u)}" r="${n(38 * u)}" fill="#fff4dc" opacity="0.95"/>`);
  // clouds
  for (let i = 0; i < 9; i++) {
    const y = R.range(0.08, 0.5) * H;
    L.far.add(
      `<ellipse cx="${n(R.range(0, W))}" cy="${n(y)}" rx="${n(R.range(200, 600) * u)}" ry="${n(R.range(14, 40) * u)}" fill="${R.pick(["#f7b79a", "#d99aa8", "#8e7fb0", "#ffd7b0"])}" opacity="${n(R.range(0.25, 0.55) * 100) / 100}"/>`,
    );
  }
  // distant headland
  const side = R.chance(0.5);
  const pts = [];
  for (let i = 0; i <= 12; i++) {
    const x = side ? (i / 12) * W * 0.4 : W - (i / 12) * W * 0.4;
    pts.push([x, hy - (1 - i / 12) * R.range(20, 60) * u]);
  }
  L.far.add(
    `<path d="${smoothPath(pts)}L${n(pts[12][0])},${n(hy + 4)}L${n(pts[0][0])},${n(hy + 4)}Z" fill="#3a3560" opacity="0.7"/>`,
  );
  // sun glitter on water
  for (let i = 0; i < 260; i++) {
    const t = Math.pow(R.f(), 1.4);
    const y = hy + 6 + t * (H - hy);
    const spreadX = (30 + t * 420) * u;
    const x = sx + R.gauss() * spreadX * 0.5;
    const w = R.range(6, 40) * u * (0.4 + t);
    L.mid.add(
      `<rect x="${n(x - w / 2)}" y="${n(y)}" width="${n(w)}" height="${n(R.range(1, 3) * u * (0.5 + t))}" rx="1" fill="${R.pick(["#fff1cf", "#ffd08f", "#ffe7b5"])}" opacity="${n(R.range(0.3, 0.9) * (1 - t * 0.5) * 100) / 100}"/>`,
    );
  }
  // swell lines
  for (let i = 0; i < 16; i++) {
    const y = hy + Math.pow(i / 16, 1.6) * (H - hy) + 8;
    const p = [];
    for (let x = -20; x <= W + 20; x += W / 14) p.push([x, y + R.range(-3, 3) * u * (1 + i / 4)]);
    L.mid.add(
      `<path d="${smoothPath(p)}" fill="none" stroke="#ffe2c0" stroke-opacity="${n((0.05 + i * 0.006) * 100) / 100}" stroke-width="${n((1 + i * 0.15) * u)}"/>`,
    );
  }
  // foreground sand and foam, defocused
  const fy = H * R.range(0.86, 0.93);
  const fp = [];
  for (let i = 0; i <= 10; i++)
    fp.push([(-0.05 + i * 0.11) * W, fy + Math.sin(i * 0.9 + R.range(0, 1)) * 20 * u + (side ? -i : i) * 4 * u]);
  L.near.add(
    `<path d="${smoothPath(fp)}L${n(W * 1.1)},${n(H * 1.1)}L${n(-W * 0.1)},${n(H * 1.1)}Z" fill="#3b2d3e" opacity="0.85"/>`,
  );
  L.near.add(
    `<path d="${smoothPath(fp)}" fill="none" stroke="#fff3e0" stroke-width="${n(10 * u)}" stroke-opacity="0.45"/>`,
  );
  ctx.pal = { ...ctx.pal, light: ["#ffe1b0", "#fff4dc", "#ffc78a"], dark: true };
  bokeh(ctx, { count: 24, min: 6, max: 40, opacity: [0.1, 0.35], spread: 0.2 });
};

LANDSCAPES.temple = (ctx) => {
  const { R, W, H, u, L } = ctx;
  sky(ctx, [
    [0, "#2a1208"],
    [0.35, "#5e2c10"],
    [0.7, "#a8621f"],
    [1, "#6a3510"],
  ]);
  softBlob(L.base, ctx.fx, ctx.fy, W * 0.5, H * 0.6, "#f3c46a", 0.7);
  softBlob(L.base, ctx.fx + W * 0.15, ctx.fy - H * 0.1, W * 0.22, H * 0.3, "#fff0c4", 0.45);
  // heavily defocused generic tiered silhouettes and a colonnade of arches (abstract, no real building)
  const towers = R.int(2, 3);
  for (let t = 0; t < towers; t++) {
    const cx = ((t + R.range(0.2, 0.8)) / towers) * W;
    const base = H * 1.02;
    let w = R.range(380, 560) * u;
    let y = base;
    const tiers = R.int(6, 8);
    const th = R.range(60, 85) * u;
    const col = R.pick(["#3b1a0a", "#4d2410", "#2e1409"]);
    for (let i = 0; i < tiers; i++) {
      L.deep.add(
        `<rect x="${n(cx - w / 2)}" y="${n(y - th)}" width="${n(w)}" height="${n(th)}" fill="${col}" opacity="0.5"/>`,
      );
      y -= th;
      w *= 0.88;
    }
  }
  const archY = H * R.range(0.5, 0.62);
  const aw = R.range(150, 210) * u;
  for (let x = -aw * R.f(); x < W + aw; x += aw) {
    L.far.add(
      `<path d="M${n(x)},${H} V${n(archY)} a${n(aw * 0.36)},${n(aw * 0.45)} 0 0 1 ${n(aw * 0.72)},0 V${H} Z" fill="#ffd98a" opacity="0.13"/>`,
    );
  }
  // a faint rangoli-like mandala of dots and petals, drawn in gold line work
  const s = R.range(46, 60) * u;
  const gx = ctx.fx;
  const gy = ctx.fy;
  const parts = [`<circle cx="${n(gx)}" cy="${n(gy)}" r="${n(6 * u)}" fill="#fff0c8" stroke="none"/>`];
  const ringsN = 6;
  for (let k = 1; k <= ringsN; k++) {
    const r = k * s;
    const count = 6 * k;
    const rot = R.range(0, Math.PI);
    for (let i = 0; i < count; i++) {
      const a = rot + (i / count) * Math.PI * 2;
      const x = gx + r * Math.cos(a);
      const y = gy + r * Math.sin(a);
      parts.push(`<circle cx="${n(x)}" cy="${n(y)}" r="${n((3.6 - k * 0.3) * u)}" fill="#fff0c8" stroke="none"/>`);
      if (k % 2 === 0) {
        const a2 = a + Math.PI / count;
        const px = gx + (r + s * 0.5) * Math.cos(a2);
        const py = gy + (r + s * 0.5) * Math.sin(a2);
        const qx1 = gx + (r - s * 0.1) * Math.cos(a2 - Math.PI / count);
        const qy1 = gy + (r - s * 0.1) * Math.sin(a2 - Math.PI / count);
        const qx2 = gx + (r - s * 0.1) * Math.cos(a2 + Math.PI / count);
        const qy2 = gy + (r - s * 0.1) * Math.sin(a2 + Math.PI / count);
        parts.push(`<path d="M${n(qx1)},${n(qy1)} Q${n(px)},${n(py)} ${n(qx2)},${n(qy2)}"/>`);
      }
    }
    if (k % 2 === 1)
      parts.push(
        `<circle cx="${n(gx)}" cy="${n(gy)}" r="${n(r + s * 0.5)}" stroke-dasharray="${n(2 * u)} ${n(7 * u)}"/>`,
      );
  }
  L.mid.add(`<g fill="none" stroke="#ffe3a3" stroke-width="${n(2 * u)}" stroke-opacity="0.45">${parts.join("")}</g>`);
  ctx.pal = { ...ctx.pal, light: ["#ffd27a", "#ffb347", "#fff0c8", "#ff9a3c"], dark: true };
  bokeh(ctx, { count: 55, min: 8, max: 55, opacity: [0.12, 0.45], spread: 0.35, hex: 0.15 });
  specks(ctx, 60, "mid", ["#ffe6a8", "#ffc76a"]);
};

LANDSCAPES.forest = (ctx) => {
  const { R, W, H, u, L } = ctx;
  sky(ctx, [
    [0, "#eef6d8"],
    [0.3, "#a9cf84"],
    [0.65, "#4f8a4f"],
    [1, "#1b3a22"],
  ]);
  const lx = W * R.range(0.55, 0.8);
  softBlob(L.base, lx, H * 0.08, W * 0.4, H * 0.6, "#fffbe0", 0.65);
  // leaf clusters of the canopy, lit and shaded
  for (let i = 0; i < 70; i++) {
    const y = Math.pow(R.f(), 1.6) * H * 0.5 - H * 0.05;
    const lit = Math.hypot((R.range(0, W) - lx) / W, y / H) < 0.3;
    softBlob(
      L.far,
      R.range(-0.05, 1.05) * W,
      y,
      R.range(50, 150) * u,
      R.range(35, 100) * u,
      R.pick(lit ? ["#b7d98a", "#d8ecaa", "#8fbf6a"] : ["#2d5a2c", "#3f7438", "#5b8f4a", "#24482a"]),
      R.range(0.4, 0.8),
      1,
      0.7,
    );
  }
  const trunk = (Ly, x, w, col, op) => {
    const lean = R.range(-0.04, 0.04) * H;
    const bend = R.range(-0.03, 0.03) * H;
    const top = -H * 0.15;
    const bot = H * 1.15;
    const mid = H * 0.5;
    Ly.add(
      `<path d="M${n(x - w * 0.6)},${n(bot)} Q${n(x - w * 0.42 + bend)},${n(mid)} ${n(x - w * 0.3 + lean)},${n(top)} L${n(x + w * 0.3 + lean)},${n(top)} Q${n(x + w * 0.42 + bend)},${n(mid)} ${n(x + w * 0.6)},${n(bot)} Z" fill="${col}" opacity="${n(op * 100) / 100}"/>`,
    );
  };
  for (let i = 0; i < 12; i++)
    trunk(L.deep, R.range(0, W), R.range(40, 100) * u, R.pick(["#8aa878", "#7b9b6c", "#9db78a"]), R.range(0.35, 0.6));
  for (let i = 0; i < 7; i++)
    trunk(L.far, R.range(0, W), R.range(30, 70) * u, R.pick(["#50704a", "#5f7f55", "#46663f"]), R.range(0.55, 0.8));
  for (let i = 0; i < 3; i++)
    trunk(
      L.mid,
      ((i + R.range(0.2, 0.8)) / 3) * W,
      R.range(70, 120) * u,
      R.pick(["#26361f", "#2f4227", "#22301c"]),
      R.range(0.8, 0.92),
    );
  trunk(L.near, R.chance(0.5) ? R.range(0, 0.08) * W : R.range(0.92, 1) * W, R.range(160, 240) * u, "#101a0e", 0.92);
  // ground: undergrowth in soft shade
  const gg = L.far.uid();
  L.far.def(
    `<linearGradient id="${gg}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#1d3a1f" stop-opacity="0"/><stop offset="1" stop-color="#1d3a1f" stop-opacity="0.75"/></linearGradient>`,
  );
  L.far.add(`<rect y="${n(H * 0.72)}" width="${W}" height="${n(H * 0.4)}" fill="url(#${gg})"/>`);
  for (let i = 0; i < 40; i++)
    softBlob(
      L.far,
      R.range(0, W),
      R.range(0.78, 1.02) * H,
      R.range(60, 160) * u,
      R.range(25, 60) * u,
      R.pick(["#3f6f35", "#5a8a45", "#2c5228"]),
      R.range(0.4, 0.8),
      1,
      0.7,
    );
  softBlob(L.far, W * 0.5, H * 0.74, W * 0.7, H * 0.12, "#eef6d8", 0.3, 1, 0.6);
  // light shafts and sun glow, added with screen blending
  const sg = L.glow.uid();
  L.glow.def(
    `<linearGradient id="${sg}" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#fffbe0" stop-opacity="0.8"/><stop offset="1" stop-color="#fffbe0" stop-opacity="0"/></linearGradient>`,
  );
  for (let i = 0; i < 7; i++) {
    const x = lx + R.range(-0.2, 0.12) * W;
    const w = R.range(30, 110) * u;
    const dx = -R.range(0.12, 0.25) * W;
    L.glow.add(
      `<path d="M${n(x)},${n(-H * 0.05)} L${n(x + w)},${n(-H * 0.05)} L${n(x + w * 2.5 + dx)},${n(H * 1.05)} L${n(x + dx)},${n(H * 1.05)} Z" fill="url(#${sg})" opacity="${n(R.range(0.35, 0.6) * 100) / 100}"/>`,
    );
  }
  softBlob(L.glow, lx, H * 0.02, W * 0.22, H * 0.35, "#fff6c8", 0.6);
  ctx.pal = { ...ctx.pal, light: ["#f1fbc8", "#d4ee9a", "#fffbe0", "#b9e08a"], dark: true };
  ctx.fx = lx;
  ctx.fy = H * 0.3;
  bokeh(ctx, { count: 50, min: 8, max: 50, opacity: [0.15, 0.45], spread: 0.35, hex: 0.2 });
  specks(ctx, 70, "glow", ["#fffbe0", "#ffffff"]);
};

LANDSCAPES.city = (ctx) => {
  const { R, W, H, u, L } = ctx;
  const hy = H * R.range(0.6, 0.68);
  sky(ctx, [
    [0, "#0b0e2b"],
    [0.3, "#272154"],
    [(hy / H) * 0.8, "#7d3c68"],
    [hy / H, "#f2935a"],
    [hy / H + 0.001, "#3a2a4a"],
    [1, "#0a0b1c"],
  ]);
  softBlob(L.base, W * R.range(0.3, 0.7), hy, W * 0.6, H * 0.35, "#ff9f5a", 0.55);
  // skyline of generic blocks, with window lights
  let x = -20;
  const blocks = [];
  const windows = [];
  while (x < W + 20) {
    const bw = R.range(40, 140) * u;
    const bh = R.range(50, 360) * u * (R.chance(0.15) ? 1.4 : 1);
    blocks.push(`<rect x="${n(x)}" y="${n(hy - bh)}" width="${n(bw + 1)}" height="${n(bh + 2)}"/>`);
    for (let wy = hy - bh + 10 * u; wy < hy - 8 * u; wy += 14 * u) {
      for (let wx = x + 6 * u; wx < x + bw - 8 * u; wx += 12 * u) {
        if (R.chance(0.22))
          windows.push(
            `<rect x="${n(wx)}" y="${n(wy)}" width="${n(6 * u)}" height="${n(7 * u)}" fill="${R.pick(["#ffd89a", "#ffe9c4", "#9fd8ff"])}" opacity="${n(R.range(0.6, 1) * 100) / 100}"/>`,
          );
      }
    }
    x += bw + R.range(0, 12) * u;
  }
  L.mid.add(`<g fill="#12122c" opacity="0.92">${blocks.join("")}</g>${windows.join("")}`);
  // reflections on water
  for (let i = 0; i < 70; i++) {
    const rx = R.range(0, W);
    const ry = hy + R.range(10, (H - hy) * 0.6);
    L.far.add(
      `<rect x="${n(rx)}" y="${n(ry)}" width="${n(R.range(8, 24) * u)}" height="${n(R.range(60, 200) * u)}" fill="${R.pick(["#ffb36b", "#ffd89a", "#8fd0ff"])}" opacity="${n(R.range(0.15, 0.45) * 100) / 100}"/>`,
    );
  }
  for (let i = 0; i < 24; i++) {
    const y = hy + Math.pow(R.f(), 1.5) * (H - hy);
    L.mid.add(
      `<rect x="${n(R.range(0, W))}" y="${n(y)}" width="${n(R.range(40, 220) * u)}" height="${n(R.range(1.5, 3) * u)}" fill="${R.pick(["#ffb36b", "#ffd89a"])}" opacity="${n(R.range(0.15, 0.4) * 100) / 100}"/>`,
    );
  }
  for (let i = 0; i < 6; i++)
    L.far.add(
      `<ellipse cx="${n(R.range(0, W))}" cy="${n(R.range(0.05, 0.4) * H)}" rx="${n(R.range(250, 600) * u)}" ry="${n(R.range(15, 45) * u)}" fill="${R.pick(["#6b3c72", "#9a4d6e", "#3b2f6a"])}" opacity="0.5"/>`,
    );
  ctx.pal = { ...ctx.pal, light: ["#ffb36b", "#ffe1a8", "#ff7e5f", "#8fd0ff"], dark: true };
  ctx.fy = H * 0.8;
  bokeh(ctx, { count: 70, min: 12, max: 90, opacity: [0.12, 0.5], spread: 0.35, hex: 0.25 });
};

/* ------------------------------------------------------------------ photo pipeline */

function grain(R, W, H, amount) {
  // Luminance grain with a slight per-channel variation, centred on 128 (neutral for soft-light).
  const buf = Buffer.alloc(W * H * 3);
  for (let i = 0, p = 0; i < W * H; i++, p += 3) {
    const v = 128 + (R.f() + R.f() + R.f() - 1.5) * amount;
    buf[p] = v + (R.f() - 0.5) * 4;
    buf[p + 1] = v + (R.f() - 0.5) * 4;
    buf[p + 2] = v + (R.f() - 0.5) * 4;
  }
  return buf;
}

async function makePhoto(spec) {
  const { w: W, h: H, file } = spec;
  const R = makeRng(file);
  const palName = spec.palette || (R.chance(spec.lightChance ?? 0.2) ? R.pick(LIGHT_PALETTES) : R.pick(DARK_PALETTES));
  const pal = PALETTES[palName];
  const side = R.chance(0.5) ? 1 : -1;
  const fxBase = spec.center ? 0.5 + R.range(-0.08, 0.08) : 0.5 + side * R.range(0.12, 0.24);
  const ctx = {
    R,
    W,
    H,
    u: H / 1000,
    pal,
    fx: W * fxBase,
    fy: H * R.range(0.4, 0.6),
    L: {
      base: new Layer("b"),
      haze: new Layer("h"),
      deep: new Layer("d"),
      far: new Layer("f"),
      mid: new Layer("m"),
      near: new Layer("n"),
      glow: new Layer("g"),
      top: new Layer("t"),
    },
  };
  if (spec.landscape) {
    LANDSCAPES[spec.landscape](ctx);
  } else {
    background(ctx);
    for (const m of spec.motifs) {
      const [name, opts] = Array.isArray(m) ? m : [m, {}];
      MOTIFS[name](ctx, opts);
    }
    const amount = spec.bokeh ?? 1;
    bokeh(ctx, { count: Math.round(34 * amount), min: 10, max: 75, opacity: ctx.pal.dark ? [0.12, 0.5] : [0.2, 0.6] });
    bokeh(ctx, {
      layer: "far",
      count: Math.round(16 * amount),
      min: 60,
      max: 230,
      opacity: ctx.pal.dark ? [0.12, 0.35] : [0.25, 0.55],
      spread: 0.5,
    });
    specks(ctx, Math.round(40 * amount));
  }
  const dark = ctx.pal.dark;
  // vignette
  const vid = ctx.L.top.uid();
  const vcol = dark ? "#000000" : mix(pal.bg[2], "#0f2a4a", 0.5);
  ctx.L.top.def(
    `<radialGradient id="${vid}" gradientUnits="userSpaceOnUse" cx="${n(ctx.fx * 0.5 + W * 0.25)}" cy="${n(H * 0.5)}" r="${n(Math.hypot(W, H) * 0.55)}" gradientTransform="translate(${n(ctx.fx * 0.5 + W * 0.25)} ${n(H / 2)}) scale(1 ${n((H / W) * 1.6 * 100) / 100}) translate(${n(-(ctx.fx * 0.5 + W * 0.25))} ${n(-H / 2)})">` +
      `<stop offset="0.45" stop-color="${vcol}" stop-opacity="0"/><stop offset="1" stop-color="${vcol}" stop-opacity="${dark ? 0.55 : 0.22}"/></radialGradient>`,
  );
  ctx.L.top.add(`<rect width="${W}" height="${H}" fill="url(#${vid})"/>`);

  const u = ctx.u;
  const screen = dark ? "screen" : "over";
  const [base, haze, deep, far, mid, near, glow, top] = await Promise.all([
    renderLayer(ctx.L.base, W, H, 0.25),
    renderLayer(ctx.L.haze, W, H, 0.25),
    renderLayer(ctx.L.deep, W, H, 0.125, { blur: 36 * u }),
    renderLayer(ctx.L.far, W, H, 0.25, { blur: 16 * u }),
    renderLayer(ctx.L.mid, W, H, spec.midBlur ? 0.5 : 1, spec.midBlur ? { blur: spec.midBlur * u } : { glow: 5 * u }),
    renderLayer(ctx.L.near, W, H, 0.5, { blur: (spec.nearBlur ?? 5) * u }),
    renderLayer(ctx.L.glow, W, H, 0.25, { blur: 20 * u }),
    renderLayer(ctx.L.top, W, H, 0.25),
  ]);
  const raw = (buf, ch = 4) => ({ raw: { width: W, height: H, channels: ch } });
  const midBlend = spec.landscape ? "over" : screen;
  const nearBlend = spec.landscape ? "over" : screen;
  const out = await sharp(base, raw(base))
    .composite([
      { input: haze, ...raw(), blend: dark ? "soft-light" : "multiply" },
      { input: deep, ...raw(), blend: spec.landscape ? "over" : screen },
      { input: far, ...raw(), blend: spec.landscape ? "over" : screen },
      { input: mid, ...raw(), blend: midBlend },
      { input: near, ...raw(), blend: nearBlend },
      { input: glow, ...raw(), blend: "screen" },
      { input: top, ...raw(), blend: "over" },
    ])
    .raw()
    .toBuffer();
  const G = grain(R, W, H, spec.grain ?? 26);
  return sharp(out, raw(out))
    .composite([{ input: G, ...raw(G, 3), blend: "soft-light" }])
    .removeAlpha()
    .jpeg({ quality: 82, mozjpeg: true, progressive: true })
    .toBuffer();
}

/* ------------------------------------------------------------------ logo and badges */

function logoSvg() {
  // A ring in teal/navy holding a woven double helix, cut by the inner disc.
  const S = 512;
  const c = S / 2;
  const teal = "#0b7a75";
  const navy = "#0f2a4a";
  const amp = 66;
  const lambda = 250;
  const k = (Math.PI * 2) / lambda;
  const x0 = -300;
  const x1 = 300;
  const piece = (phase, from, to) => {
    const pts = [];
    for (let x = from; x <= to + 0.01; x += 3) pts.push(`${n(x)},${n(amp * Math.sin(k * x + phase))}`);
    return "M" + pts.join("L");
  };
  // split each strand where it is furthest from the other (depth = 0); alternate halves are in front
  const back = [];
  const front = [];
  const edges = [];
  for (let m = -6; m <= 6; m++) edges.push((Math.PI / 2 + m * Math.PI) / k);
  const cuts = [x0, ...edges.filter((e) => e > x0 && e < x1), x1];
  for (let i = 0; i < cuts.length - 1; i++) {
    const mid = (cuts[i] + cuts[i + 1]) / 2;
    for (const [phase, col] of [
      [0, teal],
      [Math.PI, navy],
    ]) {
      const z = Math.cos(k * mid + phase);
      const halo = z > 0 ? piece(phase, mid - lambda / 9, mid + lambda / 9) : null;
      (z > 0 ? front : back).push({ d: piece(phase, cuts[i], cuts[i + 1]), halo, col });
    }
  }
  const rungs = [];
  for (let x = x0 + lambda / 16; x < x1; x += lambda / 8) {
    const ya = amp * Math.sin(k * x);
    if (Math.abs(ya) < 18) continue;
    rungs.push(`<line x1="${n(x)}" y1="${n(ya)}" x2="${n(x)}" y2="${n(-ya)}"/>`);
  }
  const strokes = (list) =>
    list.map((p) => (p.halo ? `<path d="${p.halo}" stroke="#f4f9f9" stroke-width="40"/>` : "")).join("") +
    list.map((p) => `<path d="${p.d}" stroke="${p.col}" stroke-width="24"/>`).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${S}" height="${S}" viewBox="0 0 ${S} ${S}">
  <defs>
    <linearGradient id="ring" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${teal}"/><stop offset="1" stop-color="${navy}"/></linearGradient>
    <radialGradient id="disc" cx="0.35" cy="0.3" r="0.8"><stop offset="0" stop-color="#ffffff"/><stop offset="1" stop-color="#e2f0ef"/></radialGradient>
    <clipPath id="inside"><circle cx="${c}" cy="${c}" r="206"/></clipPath>
  </defs>
  <circle cx="${c}" cy="${c}" r="240" fill="url(#ring)"/>
  <circle cx="${c}" cy="${c}" r="206" fill="url(#disc)"/>
  <g clip-path="url(#inside)">
    <g transform="translate(${c} ${c}) rotate(-38)" fill="none" stroke-linecap="butt">
      <g stroke="${teal}" stroke-opacity="0.35" stroke-width="10" stroke-linecap="round">${rungs.join("")}</g>
      ${strokes(back)}
      ${strokes(front)}
    </g>
  </g>
  <circle cx="${c}" cy="${c}" r="206" fill="none" stroke="${navy}" stroke-opacity="0.15" stroke-width="2"/>
</svg>`;
}

const BADGES = {
  india: { title: "INDIA", sub: ["REGULATORY", "APPROVAL"], color: "#c9651a", shape: "seal" },
  ema: { title: "EMA", sub: ["APPROVAL"], color: "#3342a6", shape: "round" },
  "us-fda": { title: "US FDA", sub: ["APPROVAL"], color: "#a3303f", shape: "shield" },
  nabl: { title: "NABL", sub: ["ACCREDITATION"], color: "#0b7a75", shape: "seal" },
  ngcma: { title: "NGCMA", sub: ["APPROVAL"], color: "#3d8237", shape: "round" },
  who: { title: "WHO", sub: ["RECOGNITION"], color: "#1a7fb5", shape: "shield" },
};

function badgeSvg(key) {
  const b = BADGES[key];
  const S = 800;
  const c = S / 2;
  const dark = mix(b.color, "#000000", 0.35);
  const light = mix(b.color, "#ffffff", 0.25);

  const check = (x, y, r) =>
    `<circle cx="${x}" cy="${y}" r="${r}" fill="#ffffff"/>` +
    `<path d="M${x - r * 0.45},${y + r * 0.02} L${x - r * 0.12},${y + r * 0.34} L${x + r * 0.48},${y - r * 0.3}" fill="none" stroke="${b.color}" stroke-width="${r * 0.22}" stroke-linecap="round" stroke-linejoin="round"/>`;
  let outline;
  let inner;
  let ring;
  let shadow = `<circle cx="${c}" cy="${c + 8}" r="378"/>`;
  let cy = c;
  let titleMax = 470;
  if (b.shape === "shield") {
    const shield = (s) => {
      const w = s * 0.86;
      const top = c - s;
      return `M${c},${top} C${c + w * 0.4},${top + s * 0.16} ${c + w * 0.8},${top + s * 0.16} ${c + w},${top + s * 0.12} C${c + w * 1.02},${top + s * 1.15} ${c + w * 0.5},${top + s * 1.72} ${c},${top + s * 1.98} C${c - w * 0.5},${top + s * 1.72} ${c - w * 1.02},${top + s * 1.15} ${c - w},${top + s * 0.12} C${c - w * 0.8},${top + s * 0.16} ${c - w * 0.4},${top + s * 0.16} ${c},${top}Z`;
    };
    outline = `<path d="${shield(382)}" fill="url(#edge)"/><path d="${shield(360)}" fill="#ffffff"/>`;
    shadow = `<path d="${shield(380)}" transform="translate(0 8)"/>`;
    titleMax = 400;
    inner = `<path d="${shield(344)}" fill="url(#face)"/>`;
    ring = `<path d="${shield(318)}" fill="none" stroke="#ffffff" stroke-opacity="0.55" stroke-width="4"/><path d="${shield(300)}" fill="none" stroke="#ffffff" stroke-opacity="0.3" stroke-width="2" stroke-dasharray="3 9"/>`;
    cy = c - 30;
  } else if (b.shape === "seal") {
    const pts = [];
    const teeth = 40;
    for (let i = 0; i < teeth * 2; i++) {
      const a = (i / (teeth * 2)) * Math.PI * 2;
      const r = i % 2 ? 360 : 386;
      pts.push(`${n(c + r * Math.cos(a))},${n(c + r * Math.sin(a))}`);
    }
    outline = `<polygon points="${pts.join(" ")}" fill="url(#edge)" stroke="url(#edge)" stroke-width="10" stroke-linejoin="round"/><circle cx="${c}" cy="${c}" r="342" fill="#ffffff"/>`;
    inner = `<circle cx="${c}" cy="${c}" r="326" fill="url(#face)"/>`;
    ring = `<circle cx="${c}" cy="${c}" r="300" fill="none" stroke="#ffffff" stroke-opacity="0.55" stroke-width="4"/><circle cx="${c}" cy="${c}" r="284" fill="none" stroke="#ffffff" stroke-opacity="0.3" stroke-width="2" stroke-dasharray="3 9"/>`;
  } else {
    outline = `<circle cx="${c}" cy="${c}" r="384" fill="url(#edge)"/><circle cx="${c}" cy="${c}" r="356" fill="#ffffff"/>`;
    inner = `<circle cx="${c}" cy="${c}" r="340" fill="url(#face)"/>`;
    ring = `<circle cx="${c}" cy="${c}" r="312" fill="none" stroke="#ffffff" stroke-opacity="0.55" stroke-width="4"/><circle cx="${c}" cy="${c}" r="296" fill="none" stroke="#ffffff" stroke-opacity="0.3" stroke-width="2" stroke-dasharray="3 9"/>`;
  }
  const titleSize = Math.min(128, titleMax / (b.title.length * 0.74));
  const subSize = b.sub.some((s) => s.length > 11) ? 34 : 38;
  const titleY = cy + 62;
  const subY = titleY + 78;
  const subs = b.sub
    .map(
      (s, i) =>
        `<text x="${c}" y="${subY + i * (subSize + 14)}" font-size="${subSize}" letter-spacing="4" font-weight="bold" fill="#ffffff" fill-opacity="0.92" text-anchor="middle">${s}</text>`,
    )
    .join("");
  const lastY = subY + (b.sub.length - 1) * (subSize + 14);
  const stars = [-60, 0, 60]
    .map(
      (dx, i) =>
        `<polygon points="${polyPoints(c + dx, lastY + 52, i === 1 ? 12 : 9, 5, -Math.PI / 2)}" fill="#ffffff" fill-opacity="0.85"/>`,
    )
    .join("")
    .replace(/points="([^"]*)"/g, (m, p) => {
      // turn the pentagon into a five-pointed star by reordering vertices 0,2,4,1,3
      const v = p.split(" ");
      return `points="${[v[0], v[2], v[4], v[1], v[3]].join(" ")}"`;
    });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${S}" height="${S}" viewBox="0 0 ${S} ${S}" font-family="${FONT}">
  <defs>
    <linearGradient id="edge" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${light}"/><stop offset="1" stop-color="${dark}"/></linearGradient>
    <radialGradient id="face" cx="0.35" cy="0.28" r="0.85"><stop offset="0" stop-color="${light}"/><stop offset="0.6" stop-color="${b.color}"/><stop offset="1" stop-color="${dark}"/></radialGradient>
    <filter id="shadow" x="-10%" y="-10%" width="120%" height="120%"><feGaussianBlur stdDeviation="6"/></filter>
  </defs>
  <g fill="#000000" opacity="0.2" filter="url(#shadow)">${shadow}</g>
  ${outline}
  ${inner}
  ${ring}
  ${check(c, cy - 120, 62)}
  <text x="${c}" y="${titleY}" font-size="${n(titleSize)}" font-weight="bold" fill="#ffffff" text-anchor="middle">${b.title}</text>
  <line x1="${c - 120}" y1="${titleY + 26}" x2="${c + 120}" y2="${titleY + 26}" stroke="#ffffff" stroke-opacity="0.6" stroke-width="3"/>
  ${subs}
  ${stars}
</svg>`;
}

/* ------------------------------------------------------------------ the list of files */

const SERVICES = {
  "clinical-operations": [["rings"], ["network", { reach: 0.25 }]],
  "study-design": [["grid"], ["rings"]],
  "project-management": [["grid"], ["bars"]],
  "clinical-trial-management": [["network"]],
  "data-management": [["grid"], ["network", { reach: 0.35 }]],
  "clinical-trial-monitoring": [["waves", { ecg: true }]],
  "quality-assurance": [["shield"]],
  "outsourced-clinical-trials": [["globe"]],
  "training-certification": [["waves"], ["rings"]],
  "medical-devices": [["circuit"], ["waves"]],
  "artificial-intelligence": [["circuit"]],
  phases: [["grid"], ["steps"]],
  "regulatory-affairs": [["grid"], ["pages"]],
  pharmacovigilance: [["cells"], ["waves", { ecg: true }]],
  "therapeutic-areas": [["cells"]],
  cdms: [
    ["grid", { chart: true }],
    ["network", { reach: 0.2 }],
  ],
  "scientific-affairs": [["helix"]],
  committees: [["rings", { venn: true }]],
  "regulatory-approvals": [["shield"], ["rings"]],
};

function buildSpecs() {
  const specs = [];
  const photo = (file, w, h, extra) => specs.push({ kind: "photo", file, w, h, ...extra });
  specs.push({ kind: "logo", file: "data/site/images/logo.png" });
  // Link previews (Open Graph, Twitter): the build crops it to 1200x630.
  photo("data/site/images/share.jpg", 2400, 1260, {
    palette: "navyTeal",
    motifs: [["network"], ["helix", { tilt: -6 }]],
    bokeh: 1.4,
  });

  photo("data/home/images/slide-1.jpg", 2400, 1000, {
    palette: "navyTeal",
    motifs: [["streaks"], ["helix", { tilt: -8 }]],
    bokeh: 1.6,
  });
  photo("data/home/images/slide-2.jpg", 2400, 1000, {
    palette: "midnight",
    motifs: [["grid", { chart: true }]],
    bokeh: 1,
  });
  photo("data/home/images/slide-3.jpg", 2400, 1000, { palette: "indigo", motifs: [["network"]], bokeh: 1.2 });
  photo("data/home/images/slide-4.jpg", 2400, 1000, { palette: "tealMist", motifs: [["waves"]], bokeh: 1.8 });

  photo("data/about/images/banner.jpg", 2400, 800, { palette: "petrol", motifs: [["helix"]], bokeh: 1.2 });
  photo("data/services-page/images/banner.jpg", 2400, 800, {
    palette: "deepSea",
    motifs: [["grid"], ["network", { reach: 0.3 }]],
  });

  for (const [slug, motifs] of Object.entries(SERVICES)) {
    photo(`data/services/images/${slug}-banner.jpg`, 2400, 800, { motifs, lightChance: 0.15 });
    photo(`data/services/images/${slug}-card.jpg`, 1200, 800, { motifs, center: true, lightChance: 0.3 });
  }

  photo("data/activities/images/banner.jpg", 2400, 800, {
    palette: "plum",
    motifs: [["cells"], ["network", { reach: 0.25 }]],
  });
  const sections = [
    { palette: "skyClinic", motifs: [["cells"]] },
    { palette: "navyTeal", motifs: [["helix"]] },
    { palette: "sand", motifs: [["network", { reach: 0.3 }]] },
    { palette: "deepSea", motifs: [["waves", { ecg: true }]] },
    { palette: "midnight", motifs: [["grid", { chart: true }]] },
    { palette: "petrol", motifs: [["rings"]], bokeh: 1.8 },
  ];
  sections.forEach((s, i) => photo(`data/activities/images/section-${i + 1}.jpg`, 1200, 900, { ...s, center: true }));

  for (const key of Object.keys(BADGES)) specs.push({ kind: "badge", key, file: `data/approvals/images/${key}.png` });

  photo("data/contact/images/banner.jpg", 2400, 800, { palette: "deepSea", motifs: [["globe"]], bokeh: 1.2 });
  photo("data/contact/images/region-1.jpg", 2400, 1000, { landscape: "coast", midBlur: 0.8 });
  photo("data/contact/images/region-2.jpg", 2400, 1000, { landscape: "temple", midBlur: 1.2, nearBlur: 6 });
  photo("data/contact/images/region-3.jpg", 2400, 1000, { landscape: "forest", midBlur: 10, nearBlur: 16 });
  photo("data/contact/images/region-4.jpg", 2400, 1000, { landscape: "city", midBlur: 8, nearBlur: 6 });
  return specs;
}

/* ------------------------------------------------------------------ main */

async function render(spec) {
  if (spec.kind === "logo") return sharp(Buffer.from(logoSvg())).png({ compressionLevel: 9 }).toBuffer();
  if (spec.kind === "badge")
    return sharp(Buffer.from(badgeSvg(spec.key)))
      .png({ compressionLevel: 9 })
      .toBuffer();
  return makePhoto(spec);
}

async function main() {
  const args = process.argv.slice(2);
  let only = null;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "--only") only = args[++i];
    else if (args[i].startsWith("--only=")) only = args[i].slice(7);
    else if (args[i] === "--help" || args[i] === "-h") {
      console.log("Usage: node src/scripts/make-images.mjs [--only <substring of the output path>]");
      return;
    }
  }
  if (args.includes("--only") && !only) throw new Error("--only needs a value");
  const specs = buildSpecs().filter((s) => !only || s.file.includes(only));
  if (specs.length === 0) {
    console.error(`No image matches --only ${JSON.stringify(only)}`);
    process.exitCode = 1;
    return;
  }
  const t0 = Date.now();
  let total = 0;
  for (const spec of specs) {
    const t = Date.now();
    const buf = await render(spec);
    const out = path.join(ROOT, spec.file);
    await mkdir(path.dirname(out), { recursive: true });
    await writeFile(out, buf);
    total += buf.length;
    const meta = await sharp(buf).metadata();
    console.log(
      `${spec.file.padEnd(58)} ${`${meta.width}x${meta.height}`.padStart(9)} ${`${(buf.length / 1024).toFixed(0)} KB`.padStart(8)}  ${Date.now() - t} ms`,
    );
  }
  console.log(
    `\n${specs.length} file(s), ${(total / 1024 / 1024).toFixed(2)} MB in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
