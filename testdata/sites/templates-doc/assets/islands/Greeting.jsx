// An island for the examples of docs/templates.md.
export default function Greeting({ name }) {
  return <p>Hello, {name}!</p>;
}
