// Drag-and-drop settings for assigning permissions to roles (001 §4, §9).
import {
  KeyboardCode,
  KeyboardSensor,
  PointerSensor,
  pointerWithin,
  rectIntersection,
  useSensor,
  useSensors,
  type CollisionDetection,
  type KeyboardCoordinateGetter,
} from '@dnd-kit/core';

/** A pointer drag starts after this many pixels, so clicks on buttons stay clicks. */
export const DRAG_START_DISTANCE_PX = 3;
/** Each arrow key press moves a keyboard drag this far. */
export const KEYBOARD_STEP_PX = 25;

export const keyboardCoordinates: KeyboardCoordinateGetter = (event, { currentCoordinates }) => {
  switch (event.code) {
    case KeyboardCode.Right:
      return { ...currentCoordinates, x: currentCoordinates.x + KEYBOARD_STEP_PX };
    case KeyboardCode.Left:
      return { ...currentCoordinates, x: currentCoordinates.x - KEYBOARD_STEP_PX };
    case KeyboardCode.Down:
      return { ...currentCoordinates, y: currentCoordinates.y + KEYBOARD_STEP_PX };
    case KeyboardCode.Up:
      return { ...currentCoordinates, y: currentCoordinates.y - KEYBOARD_STEP_PX };
  }
  return undefined;
};

export function useRoleSensors() {
  return useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: DRAG_START_DISTANCE_PX } }),
    useSensor(KeyboardSensor, { coordinateGetter: keyboardCoordinates }),
  );
}

/** The zone under the pointer; keyboard drags have no pointer, so the overlapped zone. */
export const roleCollision: CollisionDetection = (args) => {
  const hits = pointerWithin(args);
  return hits.length ? hits : rectIntersection(args);
};
