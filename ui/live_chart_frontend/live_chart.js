// One Plotly chart that Streamlit redraws in place. st.plotly_chart builds a new plot on every
// update; Plotly.react here changes only what changed, which is what makes several updates a
// second possible while a run is live. Streamlit's component protocol (version 1) is three
// messages: we say we are ready and how tall we are, Streamlit sends a render with our arguments.
const chart = document.getElementById("chart");
let frameHeight = 0;

function tellStreamlit(type, fields) {
  window.parent.postMessage(Object.assign({ isStreamlitMessage: true, type: type }, fields), "*");
}

window.addEventListener("message", (event) => {
  if (!event.data || event.data.type !== "streamlit:render") return;
  const figure = JSON.parse(event.data.args.figure);
  const config = event.data.args.config || {};
  const height = (figure.layout && figure.layout.height) || 450;
  chart.style.height = height + "px";
  Plotly.react(chart, figure.data, figure.layout, Object.assign({ responsive: true }, config));
  if (height !== frameHeight) {
    frameHeight = height;
    tellStreamlit("streamlit:setFrameHeight", { height: height });
  }
});

tellStreamlit("streamlit:componentReady", { apiVersion: 1 });
