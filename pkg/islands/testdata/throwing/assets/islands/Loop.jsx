// Loop never returns when props.forever is set (cancellation test).
export default function Loop(props) {
  let n = 0;
  while (props.forever) n++;
  return <p>{n}</p>;
}
