program unreadable
  real :: a(10), b(10)
  integer :: i
  b = 1.0
  do i = 1, 10
    a(i) = b(i) +* 2.0
  end do
  do i = 1, 10
    b(i) = a(i)
  end do
  print *, a, b
end program unreadable
