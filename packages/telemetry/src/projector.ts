/** The parcel projector with a span per view update inline after an append, and per page of the subscription. */
import { SpanKind } from '@opentelemetry/api';
import type { ParcelProjector } from '@parcel-logistics/application';
import { ATTR_PARCEL_EVENT_COUNT, ATTR_PARCEL_STREAM_REVISION, ATTR_PARCEL_TRACKING_NUMBER } from './attributes.ts';
import { inSpan } from './spans.ts';

export const PROJECTION_SPAN = 'projection.parcel_view.update';

export function tracedProjector(projector: ParcelProjector): ParcelProjector {
  return {
    project: (trackingNumber, known = []) => {
      const last = known[known.length - 1];
      const attributes = () => ({
        [ATTR_PARCEL_TRACKING_NUMBER]: trackingNumber,
        [ATTR_PARCEL_EVENT_COUNT]: known.length,
        // Without known events the view is brought to the stream's end, whatever revision that is.
        ...(last ? { [ATTR_PARCEL_STREAM_REVISION]: last.revision } : {}),
      });
      return inSpan(PROJECTION_SPAN, { kind: SpanKind.INTERNAL, attributes }, () =>
        projector.project(trackingNumber, known),
      );
    },
    projectHistories: (parcels) =>
      inSpan(
        PROJECTION_SPAN,
        {
          kind: SpanKind.INTERNAL,
          attributes: () => ({
            ...(parcels.length === 1 ? { [ATTR_PARCEL_TRACKING_NUMBER]: parcels[0]!.trackingNumber } : {}),
            [ATTR_PARCEL_EVENT_COUNT]: parcels.reduce((n, p) => n + p.history.length, 0),
          }),
        },
        () => projector.projectHistories(parcels),
      ),
    handleBatch: (page) =>
      inSpan(
        PROJECTION_SPAN,
        { kind: SpanKind.INTERNAL, attributes: () => ({ [ATTR_PARCEL_EVENT_COUNT]: page.length }) },
        () => projector.handleBatch(page),
      ),
  };
}
