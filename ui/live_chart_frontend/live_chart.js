// One Plotly chart that Streamlit redraws in place. st.plotly_chart builds a new plot on every
// update; Plotly.react here changes only what changed, which is what makes several updates a
// second possible while a run is live. Streamlit's component protocol (version 1) is three
// messages: we say we are ready and how tall we are, Streamlit sends a render with our arguments
// and the app's theme.
const chart = document.getElementById("chart");
let frameHeight = 0;

function tellStreamlit(type, fields) {
  window.parent.postMessage(Object.assign({ isStreamlitMessage: true, type: type }, fields), "*");
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

function themed(figure, theme) {
  const dark = theme && theme.base === "dark";
  const text = (theme && theme.textColor) || (dark ? "#fafafa" : "#31333f");
  const muted = dark ? "#a3a8b8" : "#666666";
  const grid = dark ? "rgba(250, 250, 250, 0.16)" : "rgba(49, 51, 63, 0.12)";
  const data = recolour(figure.data, text, muted);
  const layout = recolour(figure.layout, text, muted);
  layout.paper_bgcolor = "rgba(0,0,0,0)";
  layout.plot_bgcolor = "rgba(0,0,0,0)";
  layout.font = Object.assign({}, layout.font, { color: text });
  for (const key of Object.keys(layout)) {
    if (/^[xy]axis\d*$/.test(key)) layout[key] = Object.assign({ gridcolor: grid, zerolinecolor: grid, linecolor: grid }, layout[key]);
  }
  if (layout.ternary) {
    layout.ternary.bgcolor = "rgba(0,0,0,0)";
    for (const axis of ["aaxis", "baxis", "caxis"]) layout.ternary[axis] = Object.assign({ gridcolor: grid, linecolor: text }, layout.ternary[axis]);
  }
  return { data: data, layout: layout };
}

// Plotly's modebar downloads a PNG; this adds the same chart as SVG (a click handler cannot travel
// from Python as JSON, so the button is made here).
const SVG_BUTTON = {
  name: "Download plot as SVG",
  icon: Plotly.Icons.disk,
  click: (gd) => Plotly.downloadImage(gd, { format: "svg", filename: ((gd.layout.title || {}).text || "chart").replace(/[^\w]+/g, "_") }),
};

// While a run is live the server sends a static config: a chart without hover and zoom layers is
// redrawn several times a second at no extra cost. Hover and zoom are what a user reaches for with
// the pointer, so the chart under the pointer is drawn interactive (at once, and on every update
// until the pointer leaves): one chart pays for interactivity, and only while it is being used.
let lastFigure = null;
let lastConfig = {};
let pointerInside = false;

// The user's zoom, as the relayout keys Plotly reported ("xaxis.range[0]", "ternary.aaxis.min"...).
// Plotly keeps a zoom across react() by itself (uirevision), but switching between the static and
// the interactive config makes a new plot; re-applying the zoom keeps it through that too.
const userView = {};
const VIEW_KEY = /^((x|y)axis\d*\.(range\[[01]\]|autorange)|ternary\.[abc]axis\.min)$/;

function rememberView(update) {
  for (const [key, value] of Object.entries(update || {})) {
    if (!VIEW_KEY.test(key)) continue;
    const axis = key.split(".")[0];
    if (key.endsWith("autorange")) {
      for (const k of Object.keys(userView)) if (k.startsWith(axis + ".")) delete userView[k];
    } else {
      userView[key] = value;
    }
  }
}

function withUserView(layout) {
  for (const [key, value] of Object.entries(userView)) {
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

function draw() {
  const interactive = pointerInside || !lastConfig.staticPlot;
  const config = Object.assign({ modeBarButtonsToAdd: [SVG_BUTTON], responsive: true }, lastConfig, interactive ? { staticPlot: false } : {});
  Plotly.react(chart, lastFigure.data, withUserView(lastFigure.layout), config);
  if (!chart._rmListening && chart.on) {
    chart.on("plotly_relayout", rememberView);
    chart._rmListening = true;
  }
}

// A redraw in the middle of a drag ends the drag, and a live chart redraws several times a second:
// while a button is held on the chart, updates wait, and the last one is drawn on release.
let dragging = false;
chart.addEventListener("pointerdown", () => { dragging = true; }, true);
function dragEnded() {
  if (!dragging) return;
  dragging = false;
  if (lastFigure) setTimeout(draw, 0); // after Plotly has handled the release (and reported the zoom)
}
window.addEventListener("pointerup", dragEnded, true);
// A release outside this frame never reaches it: the next move without a button held, or leaving, ends the drag.
document.addEventListener("pointermove", (event) => { if (event.buttons === 0) dragEnded(); }, true);
document.documentElement.addEventListener("pointerleave", dragEnded);

// Updates are drawn at the next animation frame, the latest one only. A running page can send updates faster than a
// slow machine draws them; drawn one by one, they queued up in this thread ahead of everything else, and a click's
// answer showed seconds late (measured: 2.3-2.9 s after a setting change while running, 0.4-0.7 s while paused).
// A chart may also ask to be redrawn at most once every `every` seconds (a large figure whose changes are slow):
// updates in between are held, and the latest one is drawn when the time comes.
let lastDrawn = 0;
let pending = null;
let frameAsked = false;
function drawSoon() {
  if (frameAsked) return;
  frameAsked = true;
  requestAnimationFrame(() => {
    frameAsked = false;
    lastDrawn = Date.now();
    if (!dragging) draw();
  });
}
function throttled(every) {
  const wait = lastDrawn + every * 1000 - Date.now();
  if (wait <= 0) {
    drawSoon();
  } else if (pending === null) {
    pending = setTimeout(() => { pending = null; drawSoon(); }, wait);
  }
}

chart.addEventListener("pointerenter", () => {
  pointerInside = true;
  if (lastFigure && lastConfig.staticPlot) draw();
});
chart.addEventListener("pointerleave", () => {
  pointerInside = false;
});

window.addEventListener("message", (event) => {
  if (!event.data || event.data.type !== "streamlit:render") return;
  const given = JSON.parse(event.data.args.chart);  // one argument: Streamlit inspects every argument on the server
  lastFigure = themed(given.figure, event.data.theme);
  lastConfig = given.config || {};
  if (dragging) return;
  const height = (lastFigure.layout && lastFigure.layout.height) || 450;
  chart.style.height = height + "px";
  throttled(given.every || 0);
  if (height !== frameHeight) {
    frameHeight = height;
    tellStreamlit("streamlit:setFrameHeight", { height: height });
  }
});

tellStreamlit("streamlit:componentReady", { apiVersion: 1 });
