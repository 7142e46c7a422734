// Hog keeps allocating 1 MB strings when props.hog is set (memory cap test).
export default function Hog(props) {
  const kept = [];
  for (let i = 0; props.hog; i++) kept.push(String(i).padEnd(1 << 20, "x"));
  return <p>{kept.length}</p>;
}
