// Boom throws while rendering when props.explode is set (error test).
function label(props) {
  if (props.explode) {
    throw new Error('kaboom: ' + props.explode);
  }
  return props.text;
}

export default function Boom(props) {
  return <p className="boom">{label(props)}</p>;
}
