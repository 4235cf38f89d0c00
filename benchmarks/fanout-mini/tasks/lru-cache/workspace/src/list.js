// A doubly linked list with sentinel-free head/tail pointers.
export class LinkedList {
  // @step list-ctor
  // TODO: constructor(): empty list (head, tail, size)
  // @end

  // @step list-push-front
  // TODO: pushFront(node): insert at the front
  // @end

  // @step list-remove
  // TODO: remove(node): unlink a node
  // @end

  // @step list-pop-back
  // TODO: popBack(): remove and return the last node or null
  // @end

  // @step list-iter
  // TODO: [Symbol.iterator](): nodes front to back
  // @end
}
