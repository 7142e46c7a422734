// Churn makes props.turns strings of 1 MB, one at a time, and keeps none:
// its memory stays low, so only the render time limit can stop it. It
// counts its turns in globalThis.churned, for the test to see where it
// stopped.
export default function Churn(props) {
  let s = "";
  for (let i = 0; i < (props.turns || 0); i++) {
    s = String(i).padEnd(1 << 20, "x");
    globalThis.churned = i + 1;
  }
  return <p>{s.length}</p>;
}
