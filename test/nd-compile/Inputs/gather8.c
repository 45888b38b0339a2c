/* Calls the entry nd-compile built from an OpenVINO IR model
   (test/nd-compile/openvino.test): Gather-8 of data[4] at the constant
   indices [3, -1]. */

#include "gather8.h"

#include <stdio.h>

int main(void) {
  float data[4] = {10, 20, 30, 40};
  int64_t shape[1] = {4};
  nd_tensor input = {data, shape, NULL, ND_DTYPE_F32, 1, NULL};
  nd_tensor output = {0};
  int32_t status = gather8(NULL, &input, 1, &output, 1);
  const float *values = output.data;
  printf("input '%s'; status %d; output [%g, %g]\n",
         gather8_signature.inputs[0].name, status, values[0], values[1]);
  nd_tensor_free(&output);
  return 0;
}
