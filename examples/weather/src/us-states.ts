/** The area codes `GET /alerts/active/area/{area}` accepts for land: states, DC and territories. */
export const US_STATES: ReadonlySet<string> = new Set(
  [
    'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO',
    'MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY',
    'DC AS GU MP PR VI',
  ]
    .join(' ')
    .split(' '),
);
