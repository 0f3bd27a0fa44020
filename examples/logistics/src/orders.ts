/** One scan of a parcel along its route. */
export interface TrackingEvent {
  time: string;
  location: string;
  status: string;
}

export interface Order {
  orderId: string;
  carrier: string;
  trackingNumber: string;
  destination: string;
  status: 'in_transit' | 'delivered' | 'out_for_delivery' | 'exception';
  events: TrackingEvent[];
}

/** Bundled sample data, so the example runs offline. */
export const ORDERS: readonly Order[] = [
  {
    orderId: 'ORD-1001',
    carrier: 'SwiftShip',
    trackingNumber: 'SS123456789',
    destination: 'Berlin, DE',
    status: 'delivered',
    events: [
      { time: '2026-11-17T08:12:00Z', location: 'Rotterdam, NL', status: 'Picked up' },
      {
        time: '2026-11-18T14:40:00Z',
        location: 'Duisburg, DE',
        status: 'Arrived at sorting center',
      },
      { time: '2026-11-19T06:05:00Z', location: 'Berlin, DE', status: 'Out for delivery' },
      {
        time: '2026-11-19T11:32:00Z',
        location: 'Berlin, DE',
        status: 'Delivered, signed by J. Weber',
      },
    ],
  },
  {
    orderId: 'ORD-1002',
    carrier: 'NorthPost',
    trackingNumber: 'NP987654321',
    destination: 'Lyon, FR',
    status: 'in_transit',
    events: [
      { time: '2026-11-20T09:00:00Z', location: 'Milan, IT', status: 'Picked up' },
      { time: '2026-11-21T17:25:00Z', location: 'Turin, IT', status: 'Departed hub' },
    ],
  },
  {
    orderId: 'ORD-1003',
    carrier: 'SwiftShip',
    trackingNumber: 'SS555000111',
    destination: 'Vienna, AT',
    status: 'exception',
    events: [
      { time: '2026-11-18T10:10:00Z', location: 'Prague, CZ', status: 'Picked up' },
      {
        time: '2026-11-19T19:45:00Z',
        location: 'Brno, CZ',
        status: 'Delayed: address could not be verified',
      },
    ],
  },
  // The order id the classic order-tracking tutorial asks the Inspector and Cline about.
  {
    orderId: 'ORDER-123456',
    carrier: 'SwiftShip',
    trackingNumber: 'SS246813579',
    destination: 'Shanghai, CN',
    status: 'in_transit',
    events: [
      { time: '2026-11-21T03:20:00Z', location: 'Shenzhen, CN', status: 'Picked up' },
      {
        time: '2026-11-21T18:05:00Z',
        location: 'Guangzhou, CN',
        status: 'Departed sorting center',
      },
      { time: '2026-11-22T09:40:00Z', location: 'Hangzhou, CN', status: 'In transit to Shanghai' },
    ],
  },
];
