export default function Bad() {
  return (
    <div className="bad">
      <span>unclosed
    </div>
  );
}
