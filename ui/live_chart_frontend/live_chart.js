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

window.addEventListener("message", (event) => {
  if (!event.data || event.data.type !== "streamlit:render") return;
  const figure = themed(JSON.parse(event.data.args.figure), event.data.theme);
  const config = Object.assign({ modeBarButtonsToAdd: [SVG_BUTTON] }, event.data.args.config || {});
  const height = (figure.layout && figure.layout.height) || 450;
  chart.style.height = height + "px";
  Plotly.react(chart, figure.data, figure.layout, Object.assign({ responsive: true }, config));
  if (height !== frameHeight) {
    frameHeight = height;
    tellStreamlit("streamlit:setFrameHeight", { height: height });
  }
});

tellStreamlit("streamlit:componentReady", { apiVersion: 1 });
