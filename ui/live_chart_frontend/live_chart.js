// One Plotly chart that Streamlit redraws in place (a components.v2 module: no iframe, drawn in the
// app's own page). st.plotly_chart builds a new plot on every update; Plotly.react here changes only
// what changed, which is what makes several updates a second possible while a run is live.
//
// Streamlit calls the default export on every update of an instance, with the same parentElement:
// the chart's state lives in a map keyed by that element. plotly.js is loaded once per page (one <script>, shared by every
// chart). The server sends a small loader that imports this module from the app's static folder.

const charts = new WeakMap();
let plotlyLoading = null;

function loadPlotly(url) {
  if (window.Plotly) return Promise.resolve();
  if (!plotlyLoading) {
    plotlyLoading = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = url;
      script.onload = resolve;
      script.onerror = () => {
        plotlyLoading = null; // let a later update try again
        reject(new Error(`could not load plotly.js from ${url}`));
      };
      document.head.appendChild(script);
    });
  }
  return plotlyLoading;
}

// The figures are built without knowing the theme: "black" marks the foreground (lines, outlines,
// dashed targets) and a few greys mark muted text. Here they take the theme's colours, and the
// backgrounds become transparent so that a chart sits on the page's own background.
const MUTED = new Set(["gray", "grey", "#555555", "#666", "#888", "#bbb", "#bbbbbb"]);

function recolour(value, foreground, muted) {
  if (Array.isArray(value)) return value.map((v) => recolour(v, foreground, muted));
  if (value && typeof value === "object") {
    const out = {};
    for (const [key, v] of Object.entries(value)) {
      if (typeof v === "string" && /color$/i.test(key)) {
        out[key] = v === "black" ? foreground : MUTED.has(v) ? muted : v;
      } else {
        out[key] = recolour(v, foreground, muted);
      }
    }
    return out;
  }
  return value;
}

// Streamlit hands a v2 component its theme as CSS custom properties on an ancestor (--st-text-color,
// --st-background-color...); there is no "base", so a dark theme is one whose background is dark.
function luminance(colour) {
  const hex = colour.match(/^#([0-9a-f]{3}|[0-9a-f]{6})$/i);
  let rgb;
  if (hex) {
    const h = hex[1].length === 3 ? hex[1].replace(/./g, "$&$&") : hex[1];
    rgb = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
  } else {
    rgb = (colour.match(/[\d.]+/g) || [255, 255, 255]).slice(0, 3).map(Number);
  }
  return (0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]) / 255;
}

function pageTheme(element) {
  const style = getComputedStyle(element);
  const background = style.getPropertyValue("--st-background-color").trim() || "#ffffff";
  const dark = luminance(background) < 0.5;
  return { dark: dark, text: style.getPropertyValue("--st-text-color").trim() || (dark ? "#fafafa" : "#31333f") };
}

function themed(figure, theme) {
  const muted = theme.dark ? "#a3a8b8" : "#666666";
  const grid = theme.dark ? "rgba(250, 250, 250, 0.16)" : "rgba(49, 51, 63, 0.12)";
  const data = recolour(figure.data, theme.text, muted);
  const layout = recolour(figure.layout, theme.text, muted);
  layout.paper_bgcolor = "rgba(0,0,0,0)";
  layout.plot_bgcolor = "rgba(0,0,0,0)";
  layout.font = Object.assign({}, layout.font, { color: theme.text });
  for (const key of Object.keys(layout)) {
    if (/^[xy]axis\d*$/.test(key)) layout[key] = Object.assign({ gridcolor: grid, zerolinecolor: grid, linecolor: grid }, layout[key]);
  }
  if (layout.ternary) {
    layout.ternary.bgcolor = "rgba(0,0,0,0)";
    for (const axis of ["aaxis", "baxis", "caxis"]) layout.ternary[axis] = Object.assign({ gridcolor: grid, linecolor: theme.text }, layout.ternary[axis]);
  }
  return { data: data, layout: layout };
}

// Plotly's modebar downloads a PNG; this adds the same chart as SVG (a click handler cannot travel
// from Python as JSON, so the button is made here). One button for every redraw: Plotly.react makes
// a new plot when the config differs, and a new button would differ.
let svgButton = null;
function theSvgButton() {
  svgButton = svgButton || {
    name: "Download plot as SVG",
    icon: window.Plotly.Icons.disk,
    click: (gd) => window.Plotly.downloadImage(gd, { format: "svg", filename: ((gd.layout.title || {}).text || "chart").replace(/[^\w]+/g, "_") }),
  };
  return svgButton;
}

// The user's zoom, as the relayout keys Plotly reported ("xaxis.range[0]", "ternary.aaxis.min"...).
// Plotly keeps a zoom across react() by itself (uirevision), but switching between the static and
// the interactive config makes a new plot; re-applying the zoom keeps it through that too.
const VIEW_KEY = /^((x|y)axis\d*\.(range\[[01]\]|autorange)|ternary\.[abc]axis\.min)$/;

function withView(layout, view) {
  for (const [key, value] of Object.entries(view)) {
    const match = key.match(/^((x|y)axis\d*)\.range\[([01])\]$/);
    if (match) {
      const axis = (layout[match[1]] = Object.assign({}, layout[match[1]]));
      axis.range = (axis.range || [null, null]).slice();
      axis.range[Number(match[3])] = value;
      axis.autorange = false;
    } else if (layout.ternary) {
      const [, name] = key.split(".");
      layout.ternary[name] = Object.assign({}, layout.ternary[name], { min: value });
    }
  }
  return layout;
}

// The strategy-space chart's field: thousands of streamline points that stay put while the iterates move over them.
// Plotly.react redraws every trace of a plot whose data changed: the field redrawn with the iterates cost the matrix
// page about a fifth of its updates, drawn once underneath a small share (the rows browser_pennies_field and
// browser_pennies_no_field of docs/performance/browser.json, and the command that measures them).
// So while a run is live (a static plot), the traces whose meta is FIELD (rmcore/plotting/space.py's FIELD) are
// drawn in a plot of their own under the chart, the underlay, and redrawn only when they, the theme, the size or the
// axes change; the chart above, on a transparent page, redraws the rest. Their uid carries a digest of
// their points: comparing it stands for comparing thousands of numbers. An interactive chart (paused, or under the
// pointer) draws everything in one plot, so that zoom and hover act on the field too.
const FIELD = "field";
const UNDERLAY_CONFIG = { staticPlot: true, displayModeBar: false, responsive: false };
const BARE_AXIS = { showticklabels: false, showline: false, ticks: "", title: { text: "" } };

// The grid belongs under the field: drawn by the underlay, left out above.
function withoutGrid(layout) {
  const out = Object.assign({}, layout);
  for (const key of Object.keys(out)) {
    if (/^[xy]axis\d*$/.test(key)) out[key] = Object.assign({}, out[key], { showgrid: false, zeroline: false });
  }
  if (out.ternary) {
    out.ternary = Object.assign({}, out.ternary);
    for (const axis of ["aaxis", "baxis", "caxis"]) out.ternary[axis] = Object.assign({}, out.ternary[axis], { showgrid: false });
  }
  return out;
}

// What decides how a field trace looks, but for its points, which its uid stands for (a trace without one is
// compared whole).
function lookOf(trace) {
  if (!trace.uid) return trace;
  return Object.fromEntries(Object.entries(trace).filter(([, value]) => !Array.isArray(value)));
}

class LiveChart {
  constructor(parent) {
    // The underlay sits in the chart's box, painted before it (both positioned, in document order), and lets the
    // pointer through to it.
    this.frame = document.createElement("div");
    this.frame.style.position = "relative";
    parent.appendChild(this.frame);
    this.underlay = document.createElement("div");
    this.underlay.className = "rm-live-underlay";
    Object.assign(this.underlay.style, {
      position: "absolute", left: "0", top: "0", width: "100%", height: "100%", pointerEvents: "none", visibility: "hidden",
    });
    this.frame.appendChild(this.underlay);
    this.underlayLook = null; // what the underlay shows (lookOf its traces, its layout), as JSON
    this.field = null; // the field traces the underlay is to show, while the chart is drawn without them
    this.element = document.createElement("div");
    this.element.className = "rm-live-chart";
    this.element.style.width = "100%";
    this.element.style.position = "relative";
    this.frame.appendChild(this.element);
    // What the chart shows, in the words and the look of st.caption, drawn here: one element to send instead of two.
    this.caption = document.createElement("p");
    this.caption.className = "rm-live-caption";
    Object.assign(this.caption.style, {
      margin: "0.25rem 0 0", fontFamily: "var(--st-font)", fontSize: "0.875rem", lineHeight: "1.6",
      color: "color-mix(in srgb, var(--st-text-color) 60%, transparent)", overflowWrap: "break-word",
    });
    parent.appendChild(this.caption);
    this.figure = null; // the latest figure, already themed
    this.config = {};
    this.view = {};
    this.pointerInside = false;
    this.dragging = false;
    this.lastDrawn = 0;
    this.pending = null;
    this.frameAsked = false;
    this.listening = false;

    // While a run is live the server sends a static config: a chart without hover and zoom layers is
    // redrawn several times a second at no extra cost. Hover and zoom are what a user reaches for with
    // the pointer, so the chart under the pointer is drawn interactive (at once, and on every update
    // until the pointer leaves): one chart pays for interactivity, and only while it is being used.
    this.element.addEventListener("pointerenter", () => {
      this.pointerInside = true;
      if (this.figure && this.config.staticPlot) this.draw();
    });
    this.element.addEventListener("pointerleave", () => { this.pointerInside = false; });

    // A redraw in the middle of a drag ends the drag, and a live chart redraws several times a second:
    // while a button is held on the chart, updates wait, and the last one is drawn on release.
    this.element.addEventListener("pointerdown", () => { this.dragging = true; }, true);
    this.dragEnded = () => {
      if (!this.dragging) return;
      this.dragging = false;
      if (this.figure) setTimeout(() => this.draw(), 0); // after Plotly has handled the release (and reported the zoom)
    };
    // A release outside the browser window never arrives: the next move with no button held ends the drag too.
    this.movedWithoutButton = (event) => { if (event.buttons === 0) this.dragEnded(); };
    window.addEventListener("pointerup", this.dragEnded, true);
    window.addEventListener("pointermove", this.movedWithoutButton, true);

    // A chart that takes clicks (the strategy space: a click sets the start) reports the point under the pointer in
    // data coordinates. Plotly's own plotly_click fires on data points only; a press and release within a few pixels
    // anywhere on the plot is a click here (a longer drag is a zoom).
    this.clicks = null;
    this.report = null;
    this.pressed = null;
    this.element.addEventListener("pointerdown", (event) => { this.pressed = [event.clientX, event.clientY]; }, true);
    // (On a press Plotly covers the page with its drag layer: the release arrives there, not on the chart.)
    this.released = (event) => {
      const pressed = this.pressed;
      this.pressed = null;
      if (!pressed || !this.clicks || !this.report) return;
      if (Math.hypot(event.clientX - pressed[0], event.clientY - pressed[1]) > 5) return;
      const point = this.pointAt(event.clientX, event.clientY);
      if (point) this.report("clicked", point);
    };
    window.addEventListener("pointerup", this.released, true);
  }

  // The data coordinates under a pixel of the page: the square's (x, y) from its axes' ranges and place, or the
  // triangle's (a, b, c) from where Plotly placed it (corner a on top, b bottom left, c bottom right).
  pointAt(clientX, clientY) {
    const layout = this.element._fullLayout;
    if (!layout) return null;
    const box = this.element.getBoundingClientRect();
    const px = clientX - box.left, py = clientY - box.top;
    if (this.clicks === "square") {
      const xa = layout.xaxis, ya = layout.yaxis;
      if (!xa || !ya || !xa._length || !ya._length) return null;
      const x = xa.range[0] + ((px - xa._offset) / xa._length) * (xa.range[1] - xa.range[0]);
      const y = ya.range[1] - ((py - ya._offset) / ya._length) * (ya.range[1] - ya.range[0]);
      return { x: x, y: y };
    }
    const ternary = layout.ternary && layout.ternary._subplot;
    if (!ternary || !ternary.w || !ternary.h) return null;
    const a = 1 - (py - ternary.y0) / ternary.h;
    const c = (px - ternary.x0) / ternary.w - a / 2;
    return { a: a, b: 1 - a - c, c: c };
  }

  rememberView(update) {
    for (const [key, value] of Object.entries(update || {})) {
      if (!VIEW_KEY.test(key)) continue;
      const axis = key.split(".")[0];
      if (key.endsWith("autorange")) {
        for (const k of Object.keys(this.view)) if (k.startsWith(axis + ".")) delete this.view[k];
      } else {
        this.view[key] = value;
      }
    }
  }

  draw() {
    if (!this.figure || !window.Plotly) return;
    const interactive = this.pointerInside || !this.config.staticPlot;
    const config = Object.assign({ modeBarButtonsToAdd: [theSvgButton()], responsive: true }, this.config, interactive ? { staticPlot: false } : {});
    const field = interactive ? [] : this.figure.data.filter((trace) => trace.meta === FIELD);
    let data = this.figure.data;
    let layout = withView(this.figure.layout, this.view);
    this.field = field.length ? field : null;
    if (this.field) {
      data = data.filter((trace) => trace.meta !== FIELD);
      layout = withoutGrid(layout);
    } else {
      this.underlay.style.visibility = "hidden";
    }
    // (The underlay copies the chart's place from the plot just drawn: after it.)
    Promise.resolve(window.Plotly.react(this.element, data, layout, config)).then(() => this.drawUnderlay());
    if (!this.listening && this.element.on) {
      this.element.on("plotly_relayout", (update) => this.rememberView(update));
      this.listening = true;
    }
  }

  // The field under the chart, in the plot area the chart was just given (its margins, its axes' ranges and place,
  // the triangle's domain), redrawn only when what it shows changed.
  drawUnderlay() {
    const full = this.element._fullLayout;
    if (!this.field || !full || !full._size) return;
    const layout = {
      width: full.width, height: full.height, autosize: false, showlegend: false,
      paper_bgcolor: "rgba(0,0,0,0)", plot_bgcolor: "rgba(0,0,0,0)",
      margin: { l: full._size.l, r: full._size.r, t: full._size.t, b: full._size.b, pad: 0, autoexpand: false },
    };
    const given = this.figure.layout;
    if (full.ternary) {
      const ternary = full.ternary;
      layout.ternary = { domain: { x: ternary.domain.x.slice(), y: ternary.domain.y.slice() }, sum: ternary.sum, bgcolor: "rgba(0,0,0,0)" };
      for (const axis of ["aaxis", "baxis", "caxis"]) {
        layout.ternary[axis] = Object.assign({}, (given.ternary || {})[axis], BARE_AXIS, { min: ternary[axis].min });
      }
    } else if (full.xaxis && full.yaxis) {
      const xa = full.xaxis, ya = full.yaxis;
      // The axes' domains as the chart computed them (a square's shrink to keep it square; Plotly rounds margins to
      // whole pixels, so a domain, not a margin, places the area's half pixels). The grid goes where the chart put its
      // ticks: axes without labels or ties to each other tick elsewhere (every 0.5 where the chart's square ticks
      // every 0.2).
      for (const [key, axis] of [["xaxis", xa], ["yaxis", ya]]) {
        const ticks = (axis._vals || []).filter((tick) => !tick.minor).map((tick) => tick.x);
        const own = Object.assign({}, given[key], BARE_AXIS, {
          range: axis.range.slice(), autorange: false, domain: axis.domain.slice(), tickmode: "array", tickvals: ticks,
        });
        for (const tie of ["scaleanchor", "scaleratio", "constrain", "constraintoward", "matches"]) delete own[tie];
        layout[key] = own;
      }
    } else {
      return;
    }
    const look = JSON.stringify([this.field.map(lookOf), layout]);
    if (look !== this.underlayLook) {
      // (Copies: Plotly writes into the traces it is given, and the chart may be handed the same ones when interactive.)
      window.Plotly.react(this.underlay, this.field.map((trace) => Object.assign({}, trace)), layout, UNDERLAY_CONFIG);
      this.underlayLook = look;
    }
    this.underlay.style.visibility = "visible";
  }

  // Updates are drawn at the next animation frame, the latest one only. A running page can send updates faster than a
  // slow machine draws them; drawn one by one, they queue up ahead of everything else, and a click's answer shows
  // seconds late (measured: 2.3-2.9 s after a setting change while running, 0.4-0.7 s while paused). A chart may also
  // ask to be redrawn at most once every `every` seconds (a large figure whose changes are slow): updates in between
  // are held, and the latest one is drawn when the time comes.
  drawSoon() {
    if (this.frameAsked) return;
    this.frameAsked = true;
    requestAnimationFrame(() => {
      this.frameAsked = false;
      this.lastDrawn = Date.now();
      if (!this.dragging) this.draw();
    });
  }

  receive(given, theme) {
    this.figure = themed(given.figure, theme);
    this.clicks = given.clicks || null;
    this.config = given.config || {};
    this.caption.textContent = given.caption || "";
    this.caption.hidden = !given.caption;
    // The chart's height is known before plotly.js is: the page keeps its place while plotly.js loads.
    this.element.style.height = ((this.figure.layout && this.figure.layout.height) || 450) + "px";
    if (this.dragging) return;
    const wait = this.lastDrawn + (given.every || 0) * 1000 - Date.now();
    if (wait <= 0) {
      this.drawSoon();
    } else if (this.pending === null) {
      this.pending = setTimeout(() => { this.pending = null; this.drawSoon(); }, wait);
    }
  }

  destroy() {
    window.removeEventListener("pointerup", this.dragEnded, true);
    window.removeEventListener("pointermove", this.movedWithoutButton, true);
    window.removeEventListener("pointerup", this.released, true);
    if (this.pending !== null) clearTimeout(this.pending);
    if (window.Plotly) {
      window.Plotly.purge(this.element);
      window.Plotly.purge(this.underlay);
    }
    this.frame.remove();
    this.caption.remove();
  }
}

// `plotlyUrl` is where the app serves plotly.js (the loader Streamlit runs works it out).
export default function (component, plotlyUrl) {
  const { data, parentElement, setTriggerValue } = component;
  let chart = charts.get(parentElement);
  if (!chart) {
    chart = new LiveChart(parentElement);
    charts.set(parentElement, chart);
  }
  // The figure arrives as JSON bytes: Streamlit would otherwise encode it again and hash it canonically on the server.
  const given = JSON.parse(new TextDecoder().decode(data));
  chart.report = setTriggerValue;
  chart.receive(given, pageTheme(parentElement));
  if (!window.Plotly) loadPlotly(plotlyUrl).then(() => chart.drawSoon(), (error) => console.error(error));
  // Streamlit also calls the cleanup of a call that an update overtook while it was still loading (the calls are
  // asynchronous), with the element still on the page: only an element that has left the page loses its chart.
  return () => {
    setTimeout(() => {
      if (parentElement.isConnected || charts.get(parentElement) !== chart) return;
      charts.delete(parentElement);
      chart.destroy();
    }, 0);
  };
}
